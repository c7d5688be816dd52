// A crash: a NULL pointer written to.
#include <stdio.h>
int main(void)
{
    puts("about to crash");
    fflush(stdout);
    *(volatile int *)0 = 1;
    return 0;
}
