/* math_functions.h: device math lives in cudawb/device.h on the CPU backend. */
#include "cuda_runtime.h"
