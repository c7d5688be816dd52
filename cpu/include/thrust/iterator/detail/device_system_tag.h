/* thrust/iterator/detail/device_system_tag.h on the CPU backend: thrust::device_system_tag is cudawb's tag. */
#pragma once
#include <cudawb/thrust_system.h>
#include_next <thrust/iterator/detail/device_system_tag.h>
