// fact: Synchronization and printf: device printf output appears only at a synchronizing call.
#include "check.h"

__global__ void hello(int tag)
{
    if (threadIdx.x == 0) printf("kernel %d says hello\n", tag);
}

int main(void)
{
    hello<<<1, 32>>>(1);
    printf("host: launched, not synchronized yet\n");
    fflush(stdout);
    cudaDeviceSynchronize();
    printf("host: synchronized\n");
    fflush(stdout);
    hello<<<1, 32>>>(2);
    int *d = NULL, h = 0;
    cudaMalloc(&d, sizeof(int));
    printf("host: before a blocking cudaMemcpy\n");
    fflush(stdout);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("host: after it\n");
    cudaFree(d);
    return 0;
}
