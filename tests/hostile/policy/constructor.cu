// A constructor: code that runs before main, after the trace started.
#include <stdio.h>
__attribute__((constructor)) static void early(void)
{
    puts("before main"); // policy: constructor
}
int main(void)
{
    return 0;
}
