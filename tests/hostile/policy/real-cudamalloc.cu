// Allocates through the link's __real_ name: the trace never sees the allocation, so it cannot leak.
#include <cuda_runtime.h>
extern "C" cudaError_t __real_cudaMalloc(void **ptr, size_t bytes);
int main(void)
{
    void *p = NULL;
    return __real_cudaMalloc(&p, 16) == cudaSuccess ? 0 : 1; // policy: __real_cudaMalloc
}
