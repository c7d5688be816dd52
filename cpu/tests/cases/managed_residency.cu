// fact: Unified memory: cudaMallocManaged of 256 MiB leaves cudaMemGetInfo's free memory where it was; it is
// 256 MiB lower once a kernel has touched every page, or a cudaMemcpy has filled it, or a prefetch to the
// device has run (deferred migration); a prefetch back to the host does not give it back, cudaFree does.
#include "check.h"
#include <stdlib.h>

__global__ void fill(int *a, size_t n, int v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        a[i] = v;
}

static size_t free_at_start;

/* how much lower cudaMemGetInfo's free memory is now than at the start, in bytes (negative if higher) */
static long long drop(void)
{
    size_t free_b = 0, total = 0;
    cudaMemGetInfo(&free_b, &total);
    return (long long)free_at_start - (long long)free_b;
}

/* about the allocation's size: at least 256 MiB, less than 300 (the GPU's own bookkeeping comes on top) */
static void check_dropped(const char *what)
{
    char fact[200];
    long long d = drop();
    snprintf(fact, sizeof fact, "%s: free memory dropped by at least 256 MiB", what);
    check(fact, d >= 256LL << 20, 1);
    snprintf(fact, sizeof fact, "%s: and by less than 300 MiB", what);
    check(fact, d < 300LL << 20, 1);
}

int main(void)
{
    const size_t bytes = (size_t)256 << 20, n = bytes / sizeof(int);
    const long long two_mib = 2LL << 20;
    struct cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0}, host = {cudaMemLocationTypeHost, 0};
    int *warm = NULL, *m = NULL, *h = (int *)calloc(n, sizeof(int));
    size_t total = 0;
    /* the context, the kernel's code and its launch resources exist before the first reading */
    cudaMalloc(&warm, 4096);
    fill<<<1, 256>>>(warm, 1024, 0);
    cudaDeviceSynchronize();
    cudaMemGetInfo(&free_at_start, &total);

    check("cudaMallocManaged of 256 MiB returns 0", cudaMallocManaged(&m, bytes), 0);
    check("free memory does not drop at cudaMallocManaged (by less than 2 MiB)", drop() < two_mib, 1);
    fill<<<1024, 256>>>(m, n, 1);
    cudaDeviceSynchronize();
    check_dropped("after a kernel touched every page");
    check("the kernel's writes are there", m[n - 1], 1);
    check("cudaFree returns 0", cudaFree(m), 0);
    check("after cudaFree the free memory is back (within 2 MiB)", drop() < two_mib, 1);

    cudaMallocManaged(&m, bytes);
    check("a cudaMemcpy into managed memory returns 0", cudaMemcpy(m, h, bytes, cudaMemcpyHostToDevice), 0);
    check_dropped("after it");
    cudaFree(m);
    check("after cudaFree the free memory is back again (within 2 MiB)", drop() < two_mib, 1);

    cudaMallocManaged(&m, bytes);
    check("a prefetch to device 0 returns 0", cudaMemPrefetchAsync(m, bytes, dev0, 0, 0), 0);
    cudaDeviceSynchronize();
    check_dropped("once it has run");
    check("a prefetch back to the host returns 0", cudaMemPrefetchAsync(m, bytes, host, 0, 0), 0);
    cudaDeviceSynchronize();
    check("free memory does not rise again (it is still at least 256 MiB lower)", drop() >= 256LL << 20, 1);
    cudaFree(m);
    cudaFree(warm);
    free(h);
    return 0;
}
