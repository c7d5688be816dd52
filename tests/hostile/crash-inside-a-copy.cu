// A crash inside a CUDA call: a copy back into a host address that is not mapped. The trace records the
// signal at the call it came during, with its name and arguments (the grader names that line).
#include <stdio.h>
int main(void)
{
    float *d = NULL;
    if (cudaMalloc((void **)&d, 4096) != cudaSuccess)
        return 1;
    puts("about to copy into an address that is not mapped");
    fflush(stdout);
    cudaMemcpy((void *)16, d, 4096, cudaMemcpyDeviceToHost); // line 11: the signal comes during this call
    return 0;
}
