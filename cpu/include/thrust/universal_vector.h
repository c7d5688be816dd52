/* thrust/universal_vector.h on the CPU backend: a vector in managed memory (cudaMallocManaged), which host code
   and kernels both reach, as with CUDA's system. */
#pragma once
#include <cudawb/thrust_memory.h>
#include <thrust/detail/vector_base.h>
THRUST_NAMESPACE_BEGIN
namespace system {
namespace cudawb {
template <typename T, typename Allocator = universal_allocator<T>>
using universal_vector = thrust::detail::vector_base<T, Allocator>;
} // namespace cudawb
} // namespace system
THRUST_NAMESPACE_END
#include_next <thrust/universal_vector.h>
#include <cudawb/thrust_device.h>
