// kernel feature: stream ordering: synchronizing another stream, or an event recorded on another stream, does
// not wait for a kernel still running on its own stream; cudaStreamSynchronize of its stream does.
#include "check.h"

/* long enough that the host read always comes first on a real GPU too */
__global__ void busy_then_set(int *p, int v, long long spins)
{
    long long start = clock64();
    while (clock64() - start < spins) {}
    *p = v;
}

int main(void)
{
    cudaStream_t work, other;
    cudaEvent_t on_other;
    int *m = NULL;
    cudaStreamCreate(&work);
    cudaStreamCreate(&other);
    cudaEventCreate(&on_other);
    cudaMallocManaged(&m, sizeof(int));
    *m = 0;
    busy_then_set<<<1, 1, 0, work>>>(m, 5, 50000000LL);
    cudaStreamSynchronize(other);
    check("after synchronizing another stream the result is not there yet", *m, 0);
    cudaEventRecord(on_other, other);
    cudaEventSynchronize(on_other);
    check("nor after an event recorded on another stream", *m, 0);
    cudaStreamSynchronize(work);
    check("after synchronizing the kernel's stream it is", *m, 5);
    cudaEventDestroy(on_other);
    cudaStreamDestroy(work);
    cudaStreamDestroy(other);
    cudaFree(m);
    return 0;
}
