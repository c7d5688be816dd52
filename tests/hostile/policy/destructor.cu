// A destructor function: code that runs after main, after the trace's report is written.
#include <stdio.h>
__attribute__((destructor)) static void late(void)
{
    puts("after main"); // policy: destructor
}
int main(void)
{
    return 0;
}
