/* thrust/device_ptr.h on the CPU backend: device pointers come with the device system's operations. */
#pragma once
#include_next <thrust/device_ptr.h>
#include <cudawb/thrust_device.h>
