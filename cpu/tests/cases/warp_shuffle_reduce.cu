// kernel feature: the classic warp reduction with __shfl_down_sync, then one atomicAdd per warp, over int,
// unsigned, long long, float and double; the sums are computed on the host with a plain loop.
#include "check.h"

template <class T> __global__ void warp_sum(const T *in, T *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    T v = i < n ? in[i] : (T)0;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}

template <class T> static void run(const char *fact, int n)
{
    T *h = (T *)malloc(n * sizeof(T)), *d_in = NULL, *d_out = NULL, got = 0, want = 0;
    for (int i = 0; i < n; i++) { h[i] = (T)(i % 97 + 1); want += h[i]; }
    cudaMalloc(&d_in, n * sizeof(T));
    cudaMalloc(&d_out, sizeof(T));
    cudaMemcpy(d_in, h, n * sizeof(T), cudaMemcpyHostToDevice);
    cudaMemset(d_out, 0, sizeof(T));
    warp_sum<T><<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    cudaMemcpy(&got, d_out, sizeof(T), cudaMemcpyDeviceToHost);
    check(fact, (long long)got, (long long)want);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h);
}

int main(void)
{
    run<int>("int: the sum of 100000 elements", 100000);
    run<unsigned int>("unsigned: the sum of 5000 elements", 5000);
    run<unsigned long long>("unsigned long long: the sum of 70000 elements", 70000);
    run<float>("float: the sum of 1000 small integers (exact in float)", 1000);
    run<double>("double: the sum of 100000 elements", 100000);
    return 0;
}
