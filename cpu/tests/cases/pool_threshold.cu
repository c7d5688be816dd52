// fact: NOT YET MEASURED on the H200 (CUDA's documented behaviour; gpu-compare.sh decides): a release threshold
// of UINT64_MAX on the default pool keeps 256 MiB freed with cudaFreeAsync after a synchronize (the free memory
// stays 256 MiB lower, ReservedMemCurrent 256 MiB, UsedMemCurrent 0); the next cudaMallocAsync of the same
// size reuses it (no further drop); cudaMemPoolTrimTo(pool, 0) gives it back (drop 0).
#include "check.h"

static long long free_mib(void)
{
    size_t f = 0, t = 0;
    cudaMemGetInfo(&f, &t);
    return (long long)(f >> 20);
}

static long long pool_mib(cudaMemPool_t pool, enum cudaMemPoolAttr attr)
{
    unsigned long long v = 0;
    cudaMemPoolGetAttribute(pool, attr, &v);
    return (long long)(v >> 20);
}

int main(void)
{
    const size_t bytes = (size_t)256 << 20;
    cudaStream_t s;
    cudaMemPool_t pool;
    void *p = NULL;
    unsigned long long keep_all = ~0ull;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    check("cudaDeviceGetDefaultMemPool returns 0", cudaDeviceGetDefaultMemPool(&pool, 0), 0);
    check("setting the release threshold returns 0",
          cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all), 0);
    long long before = free_mib();
    check("cudaMallocAsync of 256 MiB returns 0", cudaMallocAsync(&p, bytes, s), 0);
    check("cudaFreeAsync returns 0", cudaFreeAsync(p, s), 0);
    check("the synchronize returns 0", cudaStreamSynchronize(s), 0);
    check("the pool kept it: the free memory is 256 MiB lower", before - free_mib(), 256);
    check("ReservedMemCurrent is 256 MiB", pool_mib(pool, cudaMemPoolAttrReservedMemCurrent), 256);
    check("UsedMemCurrent is 0", pool_mib(pool, cudaMemPoolAttrUsedMemCurrent), 0);
    check("cudaMallocAsync of 256 MiB again returns 0", cudaMallocAsync(&p, bytes, s), 0);
    check("and takes no more device memory", before - free_mib(), 256);
    check("UsedMemCurrent is 256 MiB", pool_mib(pool, cudaMemPoolAttrUsedMemCurrent), 256);
    cudaFreeAsync(p, s);
    cudaStreamSynchronize(s);
    check("cudaMemPoolTrimTo(pool, 0) returns 0", cudaMemPoolTrimTo(pool, 0), 0);
    check("and the memory is back", before - free_mib(), 0);
    cudaStreamDestroy(s);
    return 0;
}
