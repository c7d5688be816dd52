/* device_functions.h: device intrinsics live in cudawb/device.h on the CPU backend. */
#include "cuda_runtime.h"
