/* thrust/universal_allocator.h on the CPU backend: cudawb's universal (managed) memory. */
#pragma once
#include <cudawb/thrust_memory.h>
#include_next <thrust/universal_allocator.h>
