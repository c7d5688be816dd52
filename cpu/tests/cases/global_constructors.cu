// fact: CUDA works from a program's global constructors and destructors: a thrust::device_vector at namespace
// scope, and a global object whose constructor allocates and launches kernels (one with __syncthreads, one with
// warp shuffles) before main runs, then frees in its destructor after main returned. The H200 makes its context
// on the first call, whenever it comes. The destructors' cudaFree results are printed by the destructor itself,
// after main (to be measured on the H200: CUDA 13's runtime is expected to be still usable then, as its own
// teardown was registered at the first call, before these objects were complete).
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include "check.h"

#define N 256

__global__ void block_sum(const int *in, int *out)
{
    __shared__ int s[N];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    for (int half = N / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] = s[0];
}

__global__ void warp_sum(const int *in, int *out)
{
    int v = in[threadIdx.x];
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x == 0) out[1] = v;
}

__global__ void iota(int *p) { p[threadIdx.x] = threadIdx.x + 1; }

thrust::device_vector<int> global_vec(1000, 3);  // made before main: a kernel fills it

struct Early {
    int *in = NULL, *out = NULL;
    cudaError_t made, synced;
    int sums[2] = {0, 0};
    Early()
    {
        made = cudaMalloc(&in, N * sizeof(int));
        if (made == cudaSuccess) made = cudaMalloc(&out, 2 * sizeof(int));
        iota<<<1, N>>>(in);
        block_sum<<<1, N>>>(in, out);
        warp_sum<<<1, 32>>>(in, out);
        synced = cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
    }
    ~Early()
    {
        check("cudaFree in a global destructor, after main, returns 0", cudaFree(in), 0);
        check("the second one too", cudaFree(out), 0);
    }
} early;

int main(void)
{
    check("cudaMalloc in a global constructor returned 0", early.made, 0);
    check("its kernels ran: the copy back returned 0", early.synced, 0);
    check("the __syncthreads kernel's sum of 1..256", early.sums[0], N * (N + 1) / 2);
    check("the warp shuffle kernel's sum of 1..32", early.sums[1], 32 * 33 / 2);
    check("a global device_vector's size", (long long)global_vec.size(), 1000);
    check("its elements, summed by thrust::reduce", thrust::reduce(global_vec.begin(), global_vec.end()), 3000);
    global_vec[999] = 7;
    check("an element written from main", global_vec[999], 7);
    return 0;
}
