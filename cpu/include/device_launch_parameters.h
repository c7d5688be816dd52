/* device_launch_parameters.h: threadIdx, blockIdx, blockDim, gridDim and warpSize (see cudawb/device.h). */
#include "cuda_runtime.h"
