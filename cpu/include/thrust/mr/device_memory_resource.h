/* thrust/mr/device_memory_resource.h on the CPU backend: cudawb's memory resources (cudaMalloc and friends). */
#pragma once
#include <cudawb/thrust_memory.h>
#include_next <thrust/mr/device_memory_resource.h>
