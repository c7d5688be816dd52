// fact: cuBLAS's own device memory, as measured on the H200 (cuBLAS 13.1): with 64 MiB or less free, the
// first cublasCreate of a process returns 3 CUBLAS_STATUS_ALLOC_FAILED and leaves no CUDA error
// (cudaGetLastError 0); with 128 MiB or more free it returns 0; with one handle alive and less than 8 MiB
// free, a second cublasCreate returns 3 too: each handle holds its own memory (cublas_library_size.cu).
// test-libs: -lcublas
#include <cublas_v2.h>
#include "check.h"

#define MIB ((size_t)1 << 20)
#define MAX_BLOCKS 4096

static void *blocks[MAX_BLOCKS];
static int nblocks;

static size_t free_bytes(void)
{
    size_t f = 0, t = 0;
    cudaMemGetInfo(&f, &t);
    return f;
}

/* cudaMalloc blocks of at most 1 GiB (whole 2 MiB pages) until less than `below` bytes are free */
static void fill_until(size_t below)
{
    size_t cap = (size_t)1 << 30;
    for (size_t f = free_bytes(); f >= below && cap >= 2 * MIB && nblocks < MAX_BLOCKS; f = free_bytes()) {
        size_t want = (f - below / 2) & ~(2 * MIB - 1);
        if (want > cap) want = cap;
        if (want < 2 * MIB) want = 2 * MIB;
        if (cudaMalloc(&blocks[nblocks], want) == cudaSuccess) nblocks++;
        else {
            cudaGetLastError();  /* a block too large for what is left: try half as much */
            cap /= 2;
        }
    }
}

int main(void)
{
    cublasHandle_t h = (cublasHandle_t)&h, h2 = NULL;
    cudaFree(0);
    fill_until(64 * MIB);
    check("the device has less than 64 MiB free", free_bytes() < 64 * MIB, 1);
    check("the first cublasCreate returns 3", cublasCreate(&h), CUBLAS_STATUS_ALLOC_FAILED);
    check("and leaves no CUDA error", cudaGetLastError(), 0);
    cudaFree(blocks[0]);  /* at least 128 MiB free again */
    blocks[0] = NULL;
    check("with 128 MiB or more free", free_bytes() >= 128 * MIB, 1);
    check("cublasCreate returns 0", cublasCreate(&h), 0);
    fill_until(8 * MIB);
    check("with less than 8 MiB free", free_bytes() < 8 * MIB, 1);
    check("a second cublasCreate returns 3", cublasCreate(&h2), CUBLAS_STATUS_ALLOC_FAILED);
    check("no CUDA error", cudaGetLastError(), 0);
    h2 = NULL;
    cublasDestroy(h);
    for (int i = 0; i < nblocks; i++) cudaFree(blocks[i]);
    return 0;
}
