/* thrust/execution_policy.h on the CPU backend: thrust::device is cudawb's par (cudawb/thrust_system.h). */
#pragma once
#include <cudawb/thrust_system.h>
#include_next <thrust/execution_policy.h>
#include <cudawb/thrust_device.h>
