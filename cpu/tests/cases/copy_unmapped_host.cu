// fact: Copies: cudaMemcpy from a host pointer that is not mapped (0x1000) kills the process with SIGSEGV.
// test-status: 139
#include "check.h"

int main(void)
{
    int *d = NULL;
    cudaMalloc(&d, 64);
    printf("copying from 0x1000\n");
    fflush(stdout);
    cudaMemcpy(d, (void *)0x1000, 64, cudaMemcpyHostToDevice);
    printf("not reached\n");
    return 0;
}
