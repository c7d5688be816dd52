/* thrust/detail/config/device_system.h on the CPU backend: Debian's Thrust (libthrust-dev) with the backend's own
   device system, thrust::system::cudawb (cudawb/thrust_system.h): its memory comes from cudaMalloc and its
   algorithms run as kernels, sequentially, with Thrust's C++ implementation (the cpp system's headers, which
   __THRUST_DEVICE_SYSTEM_ROOT names, provide them). THRUST_DEVICE_SYSTEM reads THRUST_DEVICE_SYSTEM_CPP. */
#pragma once
#if defined(THRUST_DEVICE_SYSTEM) && THRUST_DEVICE_SYSTEM != 4
#error "the CPU backend runs Thrust with its own device system only: do not define THRUST_DEVICE_SYSTEM"
#endif
#define THRUST_DEVICE_SYSTEM 4
#include_next <thrust/detail/config/device_system.h>
#undef __THRUST_DEVICE_SYSTEM_NAMESPACE
#define __THRUST_DEVICE_SYSTEM_NAMESPACE cudawb
#undef __THRUST_DEVICE_SYSTEM_ROOT
#define __THRUST_DEVICE_SYSTEM_ROOT thrust/system/cpp
