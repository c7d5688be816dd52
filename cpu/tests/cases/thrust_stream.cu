// fact: Thrust with streams and managed memory: thrust::cuda::par.on(stream) runs an algorithm after the
// program's kernel queued on that (non-blocking) stream; par_nosync gives the same results; a
// thrust::universal_vector lives in managed memory, which host code and kernels both read and write.
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/universal_vector.h>
#include "check.h"

__global__ void descending(int *p, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) p[i] = n - i;
}

int main(void)
{
    const int n = 3000;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    thrust::universal_vector<int> u(n);
    cudaPointerAttributes attr;
    check("universal_vector's storage is managed memory",
          cudaPointerGetAttributes(&attr, thrust::raw_pointer_cast(u.data())) == cudaSuccess &&
              attr.type == cudaMemoryTypeManaged, 1);
    descending<<<3, 256, 0, s>>>(thrust::raw_pointer_cast(u.data()), n);
    thrust::sort(thrust::cuda::par.on(s), u.begin(), u.end());
    int *host_view = thrust::raw_pointer_cast(u.data());  // managed: host code may read it after the sort
    check("sort on the stream, after the stream's kernel: u[0]", host_view[0], 1);
    check("u[n - 1]", host_view[n - 1], n);
    host_view[0] = 1000000;
    check("reduce with par_nosync sees the host's write",
          thrust::reduce(thrust::cuda::par_nosync, u.begin(), u.end(), 0LL), (long long)n * (n + 1) / 2 - 1 + 1000000);
    cudaStreamDestroy(s);
    return 0;
}
