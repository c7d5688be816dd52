// the memory checker: correct kernels that use static, two-dimensional, scalar and dynamic __shared__ memory
// (a block reduction, a tiled transpose, a histogram with shared atomics) report no error and compute the
// right results under it.
// test-sanitizer: --tool memcheck --error-exitcode 86
// test-stderr: ERROR SUMMARY: 0 errors
#include "check.h"
#include "shared_kernels.h"

__global__ void histogram(const int *in, int n, int *bins)
{
    extern __shared__ int local[];
    __shared__ int total;
    if (threadIdx.x < 16) local[threadIdx.x] = 0;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&local[in[i] % 16], 1);
        atomicAdd(&total, 1);
    }
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
    if (threadIdx.x == 0) atomicAdd(&bins[16], total);
}

int main(void)
{
    const int n = 64;
    int h[1024], sums[4], bins[17];
    float m[n * n], t[n * n];
    for (int i = 0; i < 1024; i++) h[i] = i;
    for (int i = 0; i < n * n; i++) m[i] = (float)i;
    int *d_in = NULL, *d_out = NULL, *d_bins = NULL;
    float *d_m = NULL, *d_t = NULL;
    cudaMalloc(&d_in, sizeof h);
    cudaMalloc(&d_out, sizeof sums);
    cudaMalloc(&d_bins, sizeof bins);
    cudaMalloc(&d_m, sizeof m);
    cudaMalloc(&d_t, sizeof t);
    cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemcpy(d_m, m, sizeof m, cudaMemcpyHostToDevice);
    cudaMemset(d_bins, 0, sizeof bins);
    block_sum<<<4, 256>>>(d_in, d_out);
    transpose<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(d_m, d_t, n);
    histogram<<<2, 128, 16 * sizeof(int)>>>(d_in, 1024, d_bins);
    check("the kernels run without error", cudaDeviceSynchronize(), 0);
    cudaMemcpy(sums, d_out, sizeof sums, cudaMemcpyDeviceToHost);
    cudaMemcpy(t, d_t, sizeof t, cudaMemcpyDeviceToHost);
    cudaMemcpy(bins, d_bins, sizeof bins, cudaMemcpyDeviceToHost);
    check("block 3 sums 768..1023", sums[3], (768 + 1023) * 256 / 2);
    check("the transpose moved (5, 40) to (40, 5)", (long long)t[40 * n + 5], 5 * n + 40);
    check("each of 16 bins counts 64 values", bins[7], 64);
    check("the shared scalar counted every value", bins[16], 1024);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_bins);
    cudaFree(d_m);
    cudaFree(d_t);
    return 0;
}
