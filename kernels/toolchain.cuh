// toolchain.cuh: lesson 00's kernel, and what to do about each error that stops a CUDA
// program before its first kernel runs. The FIX_ lines are the one source of those words:
// lesson 00's program prints them, `make doctor` prints them (grader/doctor.sh reads them
// from here) and lesson 00's chapter shows them.
#ifndef TOOLCHAIN_CUH
#define TOOLCHAIN_CUH
#include <stddef.h>

// region: fixes
// 35 cudaErrorInsufficientDriver: no NVIDIA driver, or one older than the CUDA runtime
// the program was built with
#define FIX_NO_DRIVER                                                                    \
    "install the NVIDIA driver, or update it to one at least as new as the "             \
    "CUDA toolkit: make doctor shows both versions"
// 100 cudaErrorNoDevice: no GPU, or CUDA_VISIBLE_DEVICES hides it
#define FIX_NO_DEVICE                                                                    \
    "check that nvidia-smi lists a GPU, and that CUDA_VISIBLE_DEVICES is unset "         \
    "or names one of its GPUs"
// 209 cudaErrorNoKernelImageForDevice: the build has neither code for this GPU nor PTX
// the driver can compile for it (a printf format: the GPU's major and minor compute
// capability, twice)
#define FIX_NO_KERNEL_IMAGE                                                              \
    "rebuild for this GPU with nvcc -arch=native, or -arch=sm_%d%d for its "             \
    "compute capability %d.%d"
// end region: fixes

// out[i] = 2 in[i] + 1 for the n floats, grid-stride.
__global__ void scale(const float *in, float *out, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        out[i] = 2.0f * in[i] + 1.0f;
}
#endif
