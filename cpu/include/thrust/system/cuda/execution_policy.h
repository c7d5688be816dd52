/* thrust/system/cuda/execution_policy.h on the CPU backend: thrust::cuda::par (and .on(stream), par_nosync)
   are the backend's device policy (cudawb/thrust_system.h). */
#pragma once
#include <thrust/execution_policy.h>
