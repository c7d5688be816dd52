// Measures the cudaMemcpy facts lesson 02 relies on beyond facts/gpu-facts.md: copies from freed small and large
// device allocations, the wrong kinds' effect on the destination, and the pinned/pageable ratio at 256 MiB.
//   nvcc -arch=native -o /tmp/measure-copies tests/gpu/measure-copies.cu && /tmp/measure-copies
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#define MIB ((size_t)1 << 20)

// A copy from a device allocation of `bytes` that was freed: what cudaMemcpy returns, D2H and D2D.
static void freed_source(size_t bytes)
{
    void *d_keep = NULL, *d_gone = NULL, *h = malloc(bytes);
    cudaMalloc(&d_keep, bytes);
    cudaMalloc(&d_gone, bytes);
    cudaFree(d_gone);
    printf("copy from a freed %zu-byte allocation: D2H %d, D2D %d\n", bytes,
           (int)cudaMemcpy(h, d_gone, bytes, cudaMemcpyDeviceToHost),
           (int)cudaMemcpy(d_keep, d_gone, bytes, cudaMemcpyDeviceToDevice));
    cudaGetLastError();
    cudaFree(d_keep);
    free(h);
}

// A wrong kind between two host buffers or into a device buffer: the code, and whether the destination changed.
static void wrong_kinds(void)
{
    float src[4] = {1, 2, 3, 4}, dst[4] = {0, 0, 0, 0}, back[4] = {0, 0, 0, 0};
    float *d = NULL, *pinned = NULL;
    int err;
    cudaMalloc((void **)&d, sizeof(src));
    err = cudaMemcpy(dst, src, sizeof(src), cudaMemcpyHostToDevice);
    printf("host dst, host src, kind HostToDevice: %d, dst[0] now %g\n", err, dst[0]);
    cudaMemset(d, 0, sizeof(src));
    err = cudaMemcpy(d, src, sizeof(src), (cudaMemcpyKind)7);
    cudaMemcpy(back, d, sizeof(back), cudaMemcpyDeviceToHost);
    printf("device dst, host src, kind 7: %d, d[0] now %g\n", err, back[0]);
    cudaMallocHost((void **)&pinned, sizeof(src));
    memcpy(pinned, src, sizeof(src));
    cudaMemset(d, 0, sizeof(src));
    err = cudaMemcpy(d, pinned, sizeof(src), cudaMemcpyDeviceToDevice);
    cudaMemcpy(back, d, sizeof(back), cudaMemcpyDeviceToHost);
    printf("device dst, pinned host src, kind DeviceToDevice: %d, d[0] now %g\n", err, back[0]);
    printf("cudaFree of pinned: %d; cudaFreeHost then: %d\n", (int)cudaFree(pinned), (int)cudaFreeHost(pinned));
    cudaGetLastError();
    cudaFree(d);
}

// Mean milliseconds of reps host-to-device copies of bytes from h, after one untimed copy.
static float time_h2d(void *d, const void *h, size_t bytes, int reps)
{
    cudaEvent_t start, stop;
    float ms = 0.0f;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    cudaEventRecord(start, 0);
    for (int i = 0; i < reps; i++)
        cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    cudaEventRecord(stop, 0);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms / reps;
}

int main(void)
{
    size_t sizes[] = {16, 4000, 4000000};
    size_t bytes = 256 * MIB;
    void *d = NULL, *pinned = NULL, *pageable = malloc(bytes);

    if (cudaMalloc(&d, bytes) != cudaSuccess || cudaMallocHost(&pinned, bytes) != cudaSuccess || pageable == NULL) {
        fprintf(stderr, "error: cannot allocate 256 MiB on the device and the host: %s\n",
                cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    for (int i = 0; i < 3; i++)
        freed_source(sizes[i]);
    wrong_kinds();
    memset(pageable, 1, bytes);
    memset(pinned, 1, bytes);
    for (int run = 0; run < 3; run++) {
        float pg = time_h2d(d, pageable, bytes, 5), pn = time_h2d(d, pinned, bytes, 5);
        printf("256 MiB H2D: pageable %.3f ms (%.1f GB/s), pinned %.3f ms (%.1f GB/s), ratio %.2f\n", pg,
               bytes / pg / 1e6, pn, bytes / pn / 1e6, pg / pn);
    }
    cudaFreeHost(pinned);
    cudaFree(d);
    free(pageable);
    return 0;
}
