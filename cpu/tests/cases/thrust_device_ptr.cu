// fact: Thrust on memory the program cudaMalloc'ed: thrust::device_pointer_cast and thrust::device with raw device
// pointers; an algorithm sees what the program's kernel queued before it wrote (stream order); a functor and
// a __host__ __device__ lambda (nvcc: --extended-lambda) read device memory through a captured pointer; the
// program's own kernel reads a device_vector through raw_pointer_cast.
// test-libs: --extended-lambda
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include "check.h"

__global__ void fill_mod7(int *p, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) p[i] = (i * 5) % 7;
}

__global__ void sum_of(const int *p, int n, long long *out)
{
    long long s = 0;
    for (int i = 0; i < n; i++) s += p[i];
    *out = s;
}

struct lookup {  // reads a device table from device code
    const int *table;
    __host__ __device__ int operator()(int i) const { return table[i] * 10; }
};

int main(void)
{
    const int n = 4096;
    int *d = NULL;
    long long *d_sum = NULL, sum = 0, want = 0;
    cudaMalloc(&d, n * sizeof(int));
    cudaMalloc(&d_sum, sizeof(long long));
    fill_mod7<<<4, 128>>>(d, n);
    for (int i = 0; i < n; i++) want += (i * 5) % 7;

    thrust::device_ptr<int> p = thrust::device_pointer_cast(d);
    check("reduce over device_ptr sees the kernel queued before it", thrust::reduce(p, p + n, 0LL), want);
    check("reduce with thrust::device on raw device pointers", thrust::reduce(thrust::device, d, d + n, 0LL), want);
    check("p[10], read through the device_ptr on the host", p[10], 50 % 7);

    thrust::sort(thrust::device, d, d + n);
    int h[8];
    cudaMemcpy(h, d + n - 8, sizeof h, cudaMemcpyDeviceToHost);
    check("sort with thrust::device: the last elements are the largest", h[0] + h[7], 12);

    thrust::device_vector<int> out(n);
    thrust::counting_iterator<int> first(0);
    thrust::transform(first, first + n, out.begin(), lookup{d});
    sum_of<<<1, 1>>>(thrust::raw_pointer_cast(out.data()), n, d_sum);
    cudaMemcpy(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost);
    check("a functor read the device table; a kernel read the device_vector", sum, want * 10);

    int offset = 3;
    thrust::transform(out.begin(), out.end(), out.begin(), [=] __host__ __device__(int v) { return v + offset; });
    check("a __host__ __device__ lambda capturing a value", thrust::reduce(out.begin(), out.end(), 0LL),
          want * 10 + 3LL * n);
    const int *table = d;
    thrust::transform(thrust::device, first, first + n, out.begin(),
                      [=] __device__(int i) { return table[n - 1 - i]; });
    check("a __device__ lambda reading device memory", out[0], 6);
    cudaFree(d);
    cudaFree(d_sum);
    return 0;
}
