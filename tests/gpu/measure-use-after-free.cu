// Measures, on a real GPU, what a kernel gets when it reads device memory that was already freed: the
// cases lesson 08's variants make (scratch freed by cudaFree, or by cudaFreeAsync queued ahead of its
// kernel). One case per process, since a fault is sticky:
//   measure-use-after-free MODE BYTES
// MODE: free (cudaFree, then the kernel), async (cudaFreeAsync on the kernel's stream, queued before it),
// async-kept (the same with the default pool's release threshold at its maximum, as lesson 08 sets it),
// async-synced (cudaFreeAsync, cudaStreamSynchronize, then the kernel).
// Another 1 MiB allocation stays live throughout, as a program's other buffers do.
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <cuda_runtime.h>

__global__ void read_all(const float *in, size_t n, float *out)
{
    float s = 0.0f;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        s += in[i];
    atomicAdd(out, s);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s free|async|async-kept|async-synced BYTES\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    size_t bytes = strtoull(argv[2], NULL, 10);
    float *keep = NULL, *out = NULL, *buf = NULL;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMalloc(&keep, 1 << 20);
    cudaMalloc(&out, sizeof(float));
    cudaMemset(out, 0, sizeof(float));
    if (strcmp(mode, "async-kept") == 0) {
        cudaMemPool_t pool;
        uint64_t most = UINT64_MAX;
        cudaDeviceGetDefaultMemPool(&pool, 0);
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &most);
    }
    cudaError_t alloc, freed;
    if (strcmp(mode, "free") == 0) {
        alloc = cudaMalloc(&buf, bytes);
        cudaMemset(buf, 0, bytes);
        cudaDeviceSynchronize();
        freed = cudaFree(buf);
    } else {
        alloc = cudaMallocAsync(&buf, bytes, s);
        cudaMemsetAsync(buf, 0, bytes, s);
        freed = cudaFreeAsync(buf, s);
        if (strcmp(mode, "async-synced") == 0) cudaStreamSynchronize(s);
    }
    read_all<<<132, 256, 0, s>>>(buf, bytes / sizeof(float), out);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaStreamSynchronize(s);
    printf("%s %zu bytes: alloc %d, free %d, launch %d, synchronize %d %s\n", mode, bytes, (int)alloc, (int)freed,
           (int)launch, (int)sync, cudaGetErrorName(sync));
    return 0;
}
