// kernel feature: a cuda::barrier phase that no thread will complete (init for 2, one thread arrives and
// waits): a GPU would wait for ever; the CPU backend stops the program with a message saying so.
// test-gpu: skip (on a GPU this program hangs: the CPU backend's own report)
// test-status: 134
// test-stderr: every thread of block 0 still running waits .* on the GPU the kernel would hang
#include "check.h"
#include <cuda/barrier>

__global__ void stuck(int *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    init(&bar, 2);
    bar.arrive_and_wait();
    out[0] = 1;
}

int main(void)
{
    int *d = NULL;
    cudaMalloc(&d, sizeof(int));
    printf("launching\n");
    fflush(stdout); /* abort() does not flush stdio */
    stuck<<<1, 1>>>(d);
    cudaDeviceSynchronize();
    printf("not reached\n");
    return 0;
}
