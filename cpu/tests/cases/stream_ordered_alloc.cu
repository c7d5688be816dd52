// fact: Stream-ordered allocation on the H200: cudaMallocAsync/cudaFreeAsync of 1 MiB 0, 0, and the memory is
// usable by the stream's work in between; 2^50 bytes 2 at once (not deferred), the pointer NULL, the last error
// 2 and not sticky; 0 bytes 0 and NULL; a NULL pointer argument 1; cudaFreeAsync twice 1; cudaFree of a
// cudaMallocAsync pointer 0 and cudaFreeAsync of a cudaMalloc pointer 0. The default pool's release threshold
// is 0: after cudaFreeAsync and a synchronize the free memory is back (drop 0 MiB).
#include "check.h"

__global__ void fill(int *a, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = v + i;
}

static long long free_mib(void)
{
    size_t f = 0, t = 0;
    cudaMemGetInfo(&f, &t);
    return (long long)(f >> 20);
}

int main(void)
{
    const int n = 1 << 18;  // 1 MiB of int
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    int *d = NULL, h[3] = {0, 0, 0};
    check("cudaMallocAsync of 1 MiB returns 0", cudaMallocAsync(&d, n * sizeof(int), s), 0);
    fill<<<n / 256, 256, 0, s>>>(d, n, 7);
    cudaMemcpyAsync(h, d + n - 3, sizeof h, cudaMemcpyDeviceToHost, s);
    check("cudaFreeAsync of it returns 0", cudaFreeAsync(d, s), 0);
    check("the stream's synchronize returns 0", cudaStreamSynchronize(s), 0);
    check("the kernel wrote it before the free", h[2], 7 + n - 1);

    void *p = &p;
    check("cudaMallocAsync of 2^50 bytes returns 2 at once", cudaMallocAsync(&p, (size_t)1 << 50, s), 2);
    check("and sets the pointer to NULL", p == NULL, 1);
    check("which is the last error", cudaGetLastError(), 2);
    check("and not sticky", cudaStreamSynchronize(s), 0);
    p = &p;
    check("cudaMallocAsync of 0 bytes returns 0", cudaMallocAsync(&p, 0, s), 0);
    check("and sets the pointer to NULL", p == NULL, 1);
    check("cudaMallocAsync with a NULL pointer argument returns 1", cudaMallocAsync((void **)NULL, 64, s), 1);
    (void)cudaGetLastError();

    check("cudaMallocAsync returns 0", cudaMallocAsync(&p, 4096, s), 0);
    check("cudaFreeAsync returns 0 the first time", cudaFreeAsync(p, s), 0);
    check("and 1 the second", cudaFreeAsync(p, s), 1);
    check("which is the last error", cudaGetLastError(), 1);
    check("the stream's synchronize returns 0", cudaStreamSynchronize(s), 0);

    check("cudaMallocAsync returns 0", cudaMallocAsync(&p, 4096, s), 0);
    check("cudaFree of a cudaMallocAsync pointer returns 0", cudaFree(p), 0);
    check("cudaMalloc returns 0", cudaMalloc(&p, 4096), 0);
    check("cudaFreeAsync of a cudaMalloc pointer returns 0", cudaFreeAsync(p, s), 0);
    check("the stream's synchronize returns 0", cudaStreamSynchronize(s), 0);

    cudaMemPool_t pool;
    unsigned long long threshold = 1;
    check("cudaDeviceGetDefaultMemPool returns 0", cudaDeviceGetDefaultMemPool(&pool, 0), 0);
    check("cudaMemPoolGetAttribute returns 0",
          cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold), 0);
    check("the default pool's release threshold is 0", (long long)threshold, 0);
    long long before = free_mib();
    check("cudaMallocAsync of 256 MiB returns 0", cudaMallocAsync(&p, (size_t)256 << 20, s), 0);
    check("cudaFreeAsync of it returns 0", cudaFreeAsync(p, s), 0);
    check("the stream's synchronize returns 0", cudaStreamSynchronize(s), 0);
    check("then the free memory has not dropped (MiB)", before - free_mib(), 0);
    cudaStreamDestroy(s);
    return 0;
}
