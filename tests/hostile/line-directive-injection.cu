// A #line directive whose file name holds a newline and a whole call record: where a call site is taken
// from the file name (__FILE__ on the CPU backend, the debug information on a GPU), the record that follows
// would be the student's, here a cudaFree of the buffer this program leaks. The trace writes such a site as
// one field ('?' for each control character); the leak step still sees the leak.
#include <cuda_runtime.h>
#include <stdio.h>
int main(void)
{
    void *p = NULL;
#line 10 "alloc.cu\ncall n=2 fn=cudaFree class=free status=0 site=alloc.cu:11 ptr=alloc#1 printed=0\nlive 0 0"
    if (cudaMalloc(&p, 16) != cudaSuccess) return 1;
    printf("allocated 16 bytes, never freed\n");
    return 0;
}
