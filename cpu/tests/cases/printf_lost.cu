// fact: Synchronization and printf: a program that returns after a launch without synchronizing prints
// nothing from the kernel.
#include "check.h"

__global__ void hello(void) { printf("this line is never printed\n"); }

int main(void)
{
    hello<<<1, 4>>>();
    printf("host: returning without synchronizing\n");
    return 0;
}
