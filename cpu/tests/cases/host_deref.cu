// fact: Copies: host code dereferencing a device pointer dies with SIGSEGV (exit 139).
// test-status: 139
#include "check.h"

int main(void)
{
    int *d = NULL;
    cudaMalloc(&d, 64);
    cudaMemset(d, 0, 64);
    cudaDeviceSynchronize();
    printf("reading a device pointer on the host\n");
    fflush(stdout);
    volatile int x = d[0];
    printf("not reached %d\n", x);
    return 0;
}
