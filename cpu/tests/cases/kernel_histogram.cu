// kernel feature: an atomic histogram over many blocks (run in parallel on the host's cores); the expected
// counts are computed on the host.
#include <stdlib.h>
#include "check.h"

__global__ void histogram(const unsigned char *data, int n, unsigned int *bins)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[data[i] % 16], 1u);
}

int main(void)
{
    const int n = 1 << 20;
    unsigned char *h = (unsigned char *)malloc(n), *d = NULL;
    unsigned int want[16] = {0}, got[16], *d_bins = NULL;
    unsigned int x = 12345;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        h[i] = (unsigned char)(x >> 16);
        want[h[i] % 16]++;
    }
    cudaMalloc(&d, n);
    cudaMalloc(&d_bins, sizeof got);
    cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
    cudaMemset(d_bins, 0, sizeof got);
    histogram<<<64, 256>>>(d, n, d_bins);
    cudaMemcpy(got, d_bins, sizeof got, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b < 16; b++) bad += got[b] != want[b];
    check("all 16 bins match the host's count", bad, 0);
    cudaFree(d);
    cudaFree(d_bins);
    free(h);
    return 0;
}
