// fact: Synchronization: a kernel launch returns at once; a host read of managed memory right after the
// launch sees the old value (0), after cudaDeviceSynchronize the new one.
#include "check.h"

__global__ void set_value(int *p, int v)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) *p = v;
}

/* a kernel long enough that the host read always comes first on a real GPU too */
__global__ void busy_then_set(int *p, int v, int spins)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        long long start = clock64();
        while (clock64() - start < spins) {}
        *p = v;
    }
}

int main(void)
{
    int *m = NULL;
    cudaMallocManaged(&m, sizeof(int));
    *m = 0;
    busy_then_set<<<1, 1>>>(m, 7, 20000000);
    check("right after the launch the host sees the old value", *m, 0);
    cudaDeviceSynchronize();
    check("after cudaDeviceSynchronize it sees the new one", *m, 7);
    set_value<<<1, 1>>>(m, 8);
    cudaDeviceSynchronize();
    check("and again after the next kernel", *m, 8);
    cudaFree(m);
    return 0;
}
