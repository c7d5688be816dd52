// fact: Unified memory: cudaMemPrefetchAsync (CUDA 13 form) to device 0 or to the host returns 0; to device
// 99 101; past the allocation's end, on a cudaMalloc or malloc pointer, or with flags 1 it returns 1.
// fact: Unified memory: cudaMemAdvise (CUDA 13 form) ReadMostly, PreferredLocation device 0 or host,
// AccessedBy device 0 return 0; advice 99, a cudaMalloc pointer, PreferredLocation device 99 return 1.
// Each error is also the last error (the next cudaGetLastError returns it, the one after 0); none is sticky.
#include "check.h"
#include <stdlib.h>

__global__ void add_one(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1.0f;
}

/* the call's code, then what the next two cudaGetLastError calls say: that code, then 0 */
static void check_call(const char *what, cudaError_t got, int want)
{
    char fact[200];
    check(what, got, want);
    snprintf(fact, sizeof fact, "%s: then cudaGetLastError returns %d", what, want);
    check(fact, cudaGetLastError(), want);
    snprintf(fact, sizeof fact, "%s: and the one after returns 0", what);
    check(fact, cudaGetLastError(), 0);
}

int main(void)
{
    const int n = 1 << 18;
    const size_t bytes = n * sizeof(float);
    float *m = NULL, *d = NULL, *h = (float *)malloc(bytes);
    cudaStream_t stream = NULL;
    struct cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0}, host = {cudaMemLocationTypeHost, 0};
    struct cudaMemLocation dev99 = {cudaMemLocationTypeDevice, 99};
    cudaMallocManaged(&m, bytes);
    cudaMalloc(&d, bytes);
    cudaStreamCreate(&stream);
    for (int i = 0; i < n; i++) m[i] = 1.0f;

    check_call("prefetch to device 0 returns 0", cudaMemPrefetchAsync(m, bytes, dev0, 0, stream), 0);
    check_call("prefetch to the host returns 0", cudaMemPrefetchAsync(m, bytes, host, 0, stream), 0);
    check_call("prefetch to device 99 returns 101", cudaMemPrefetchAsync(m, bytes, dev99, 0, stream), 101);
    check_call("prefetch past the allocation's end returns 1", cudaMemPrefetchAsync(m, 2 * bytes, dev0, 0, stream), 1);
    check_call("prefetch of a cudaMalloc pointer returns 1", cudaMemPrefetchAsync(d, bytes, dev0, 0, stream), 1);
    check_call("prefetch of a malloc pointer returns 1", cudaMemPrefetchAsync(h, bytes, dev0, 0, stream), 1);
    check_call("prefetch with flags 1 returns 1", cudaMemPrefetchAsync(m, bytes, dev0, 1, stream), 1);
    check_call("prefetch back to device 0 still returns 0", cudaMemPrefetchAsync(m, bytes, dev0, 0, stream), 0);
    add_one<<<n / 256, 256, 0, stream>>>(m, n);
    check("after those errors a kernel still runs", cudaStreamSynchronize(stream), 0);
    check("and its result is there", m[n - 1] == 2.0f, 1);

    check_call("advice ReadMostly returns 0", cudaMemAdvise(m, bytes, cudaMemAdviseSetReadMostly, dev0), 0);
    check_call("advice PreferredLocation device 0 returns 0",
               cudaMemAdvise(m, bytes, cudaMemAdviseSetPreferredLocation, dev0), 0);
    check_call("advice PreferredLocation host returns 0",
               cudaMemAdvise(m, bytes, cudaMemAdviseSetPreferredLocation, host), 0);
    check_call("advice AccessedBy device 0 returns 0", cudaMemAdvise(m, bytes, cudaMemAdviseSetAccessedBy, dev0), 0);
    check_call("advice 99 returns 1", cudaMemAdvise(m, bytes, (enum cudaMemoryAdvise)99, dev0), 1);
    check_call("advice on a cudaMalloc pointer returns 1", cudaMemAdvise(d, bytes, cudaMemAdviseSetReadMostly, dev0), 1);
    check_call("advice PreferredLocation device 99 returns 1",
               cudaMemAdvise(m, bytes, cudaMemAdviseSetPreferredLocation, dev99), 1);

    cudaStreamDestroy(stream);
    cudaFree(d);
    cudaFree(m);
    free(h);
    check("no error is left behind", cudaGetLastError(), 0);
    return 0;
}
