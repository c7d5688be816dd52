// Asks the CUDA runtime whether a usable GPU answers; the grader's backend choice reads its one line:
// "ok NAME MAJOR.MINOR" or "error CODE NAME: STRING". With --versions, a first line
// "versions runtime R driver D" (as cudaRuntimeGetVersion and cudaDriverGetVersion give them; 0 = none).
#include <stdio.h>
#include <string.h>
#include <cuda_runtime.h>

int main(int argc, char **argv)
{
    int count = 0, runtime = 0, driver = 0;
    struct cudaDeviceProp prop;
    cudaError_t err;

    if (argc > 1 && strcmp(argv[1], "--versions") == 0) {
        cudaRuntimeGetVersion(&runtime);
        cudaDriverGetVersion(&driver);
        printf("versions runtime %d driver %d\n", runtime, driver);
    }
    err = cudaGetDeviceCount(&count);
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
