// kernel feature: stream ordering: copy, kernel and copy back on two streams with pinned memory and events;
// each stream's work happens in order, and the results are there after cudaStreamSynchronize.
#include "check.h"

__global__ void scale(float *a, int n, float k)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) a[i] *= k;
}

int main(void)
{
    const int n = 1 << 16;
    float *h[2], *d[2];
    cudaStream_t s[2];
    for (int k = 0; k < 2; k++) {
        cudaMallocHost(&h[k], n * sizeof(float));
        cudaMalloc(&d[k], n * sizeof(float));
        cudaStreamCreate(&s[k]);
        for (int i = 0; i < n; i++) h[k][i] = (float)i;
    }
    for (int k = 0; k < 2; k++) {
        cudaMemcpyAsync(d[k], h[k], n * sizeof(float), cudaMemcpyHostToDevice, s[k]);
        scale<<<32, 256, 0, s[k]>>>(d[k], n, 2.0f + k);
        scale<<<32, 256, 0, s[k]>>>(d[k], n, 10.0f);
        cudaMemcpyAsync(h[k], d[k], n * sizeof(float), cudaMemcpyDeviceToHost, s[k]);
    }
    for (int k = 0; k < 2; k++) cudaStreamSynchronize(s[k]);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[0][i] != i * 20.0f || h[1][i] != i * 30.0f;
    check("each stream ran copy, scale, scale, copy in order", bad, 0);
    for (int k = 0; k < 2; k++) {
        cudaStreamDestroy(s[k]);
        cudaFree(d[k]);
        cudaFreeHost(h[k]);
    }
    check("no error", cudaGetLastError(), 0);
    return 0;
}
