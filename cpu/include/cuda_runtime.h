/* cuda_runtime.h: what nvcc makes visible to every .cu file (it force-includes this header), for the CPU backend. */
#ifndef CUDAWB_CUDA_RUNTIME_H
#define CUDAWB_CUDA_RUNTIME_H
#define __CUDA_RUNTIME_H__ /* CUDA's own guard, which helper headers test */
/* the C headers nvcc 13's own cuda_runtime.h pulls in, so code that compiles with nvcc compiles here */
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuda_runtime_api.h"
#include "driver_functions.h"
#include "cudawb/device.h"
#include "cudawb/launch.h"
#include "cudawb/lockstep.h"
#include "cudawb/warp.h"
#include "cudawb/by_address.h"
#endif
