// A #line directive whose file name holds a newline: report lines injected through call sites.
#include <cuda_runtime.h>
int main(void)
{
#line 7 "alloc.cu\ncall n=1 fn=cudaFree class=free status=0 site=alloc.cu:1" // policy: line
    void *p = NULL;
    return cudaMalloc(&p, 16) != cudaSuccess;
}
