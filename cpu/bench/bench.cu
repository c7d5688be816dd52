// bench.cu: the three speed measurements of the CPU backend (issue 3, "Speed"), run by bench/run.sh.
// Prints "vector_add backend_s plain_s", "reduction elements_per_s", "reduction_gridstride elements_per_s" and
// "warp_reduction elements_per_s".
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void block_sum(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

// the reduction as lessons write it: each thread first sums a grid-stride slice, then the block's tree
__global__ void block_sum_gridstride(const float *in, float *out, int n)
{
    __shared__ float s[256];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += in[i];
    s[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, s[0]);
}

// the warp-shuffle reduction (one element per thread, five __shfl_down_sync per warp, an atomicAdd per warp)
__global__ void warp_sum(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}

// the same loop in plain C; noinline so the compiler cannot drop it
__attribute__((noinline)) static void plain_add(const float *a, const float *b, float *c, int n)
{
    for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void)
{
    const int n = 16 << 20, reps = 5;
    size_t bytes = (size_t)n * sizeof(float);
    float *h_a = (float *)malloc(bytes), *h_b = (float *)malloc(bytes), *h_c = (float *)malloc(bytes);
    float *d_a, *d_b, *d_c, *d_sums, *d_warp;
    for (int i = 0; i < n; i++) { h_a[i] = 1.0f; h_b[i] = 2.0f; h_c[i] = 0.0f; }
    cudaMalloc(&d_a, bytes);
    cudaMalloc(&d_b, bytes);
    cudaMalloc(&d_c, bytes);
    cudaMalloc(&d_sums, (n / 256) * sizeof(float));
    cudaMalloc(&d_warp, sizeof(float));
    cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    double best_backend = 1e30, best_plain = 1e30, best_reduce = 1e30, best_strided = 1e30, best_warp = 1e30;
    for (int r = 0; r < reps; r++) {
        float ms;
        cudaEventRecord(start);
        vector_add<<<n / 256, 256>>>(d_a, d_b, d_c, n);
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        cudaEventElapsedTime(&ms, start, stop);
        if (ms / 1e3 < best_backend) best_backend = ms / 1e3;

        double t0 = now();
        plain_add(h_a, h_b, h_c, n);
        double t1 = now();
        if (t1 - t0 < best_plain) best_plain = t1 - t0;

        cudaEventRecord(start);
        block_sum<<<n / 256, 256>>>(d_a, d_sums, n);
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        cudaEventElapsedTime(&ms, start, stop);
        if (ms / 1e3 < best_reduce) best_reduce = ms / 1e3;

        cudaMemset(d_sums, 0, sizeof(float));
        cudaEventRecord(start);
        block_sum_gridstride<<<1056, 256>>>(d_a, d_sums, n);
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        cudaEventElapsedTime(&ms, start, stop);
        if (ms / 1e3 < best_strided) best_strided = ms / 1e3;

        cudaMemset(d_warp, 0, sizeof(float));
        cudaEventRecord(start);
        warp_sum<<<n / 16 / 256, 256>>>(d_a, d_warp, n / 16);
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        cudaEventElapsedTime(&ms, start, stop);
        if (ms / 1e3 < best_warp) best_warp = ms / 1e3;
    }
    float warp_total;
    cudaMemcpy(&warp_total, d_warp, sizeof warp_total, cudaMemcpyDeviceToHost);
    if (warp_total != (float)(n / 16)) { fprintf(stderr, "bench: wrong warp sum (%f)\n", warp_total); return 1; }
    float total;
    cudaMemcpy(&total, d_sums, sizeof total, cudaMemcpyDeviceToHost);
    if (total != (float)n) { fprintf(stderr, "bench: wrong grid-stride sum (%f)\n", total); return 1; }
    block_sum<<<n / 256, 256>>>(d_a, d_sums, n);
    float check;
    cudaMemcpy(&check, d_sums, sizeof check, cudaMemcpyDeviceToHost);
    if (check != 256.0f || h_c[n - 1] != 3.0f) { fprintf(stderr, "bench: wrong results (%f)\n", check); return 1; }
    printf("vector_add %.6f %.6f\n", best_backend, best_plain);
    printf("reduction %.0f\n", n / best_reduce);
    printf("reduction_gridstride %.0f\n", n / best_strided);
    printf("warp_reduction %.0f\n", n / 16 / best_warp);
    cudaFree(d_a); cudaFree(d_b); cudaFree(d_c); cudaFree(d_sums); cudaFree(d_warp);
    free(h_a); free(h_b); free(h_c);
    return 0;
}
