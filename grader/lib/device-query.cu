// Asks the CUDA runtime whether a usable GPU answers; the grader's backend choice reads its one line:
// "ok NAME MAJOR.MINOR" or "error CODE NAME: STRING".
#include <stdio.h>
#include <cuda_runtime.h>

int main(void)
{
    int count = 0;
    struct cudaDeviceProp prop;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count == 0)
        err = cudaErrorNoDevice;
    if (err == cudaSuccess)
        err = cudaGetDeviceProperties(&prop, 0);
    if (err != cudaSuccess) {
        printf("error %d %s: %s\n", (int)err, cudaGetErrorName(err), cudaGetErrorString(err));
        return 1;
    }
    printf("ok %s %d.%d\n", prop.name, prop.major, prop.minor);
    return 0;
}
