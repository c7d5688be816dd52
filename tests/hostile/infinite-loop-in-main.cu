// An infinite loop in main, after a CUDA call.
#include <cuda_runtime.h>
int main(void)
{
    void *p;
    cudaMalloc(&p, 16);
    for (volatile int spin = 1; spin;) {
    }
    return 0;
}
