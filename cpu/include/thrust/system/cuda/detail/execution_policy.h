/* thrust/system/cuda/detail/execution_policy.h on the CPU backend: everything of CUDA's own Thrust system
   (thrust::cuda::vector, pointer, memory_resource, its future) includes it, and is refused here. */
#error "CUDA's own Thrust system (thrust::cuda::vector, thrust::cuda::pointer, its memory resources) is not emulated by the CPU backend: use thrust::device_vector, thrust::device_ptr and thrust::device or thrust::cuda::par"
