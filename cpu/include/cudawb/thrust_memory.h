/* cudawb/thrust_memory.h: the memory of the CPU backend's Thrust device system (cudawb/thrust_system.h), as
   CUDA's system has it: thrust::device_vector's storage comes from cudaMalloc, universal_vector's from
   cudaMallocManaged, the pinned resource's from cudaMallocHost. An allocation that fails clears the CUDA error
   and throws thrust::system::detail::bad_alloc (a std::bad_alloc) whose what() names the CUDA error:
   "std::bad_alloc: cudaErrorMemoryAllocation: out of memory". */
#pragma once
#include <cudawb/thrust_system.h>
#include <thrust/detail/pointer.h>
#include <thrust/detail/reference.h>
#include <thrust/mr/allocator.h>
#include <thrust/mr/memory_resource.h>
#include <thrust/system/cuda/error.h>
#include <thrust/system/detail/bad_alloc.h>
#include <thrust/system_error.h>
#include <type_traits>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cudawb {
template <typename T> using pointer = thrust::pointer<T, tag, thrust::tagged_reference<T, tag>>;
template <typename T> using universal_pointer = thrust::pointer<T, tag, typename std::add_lvalue_reference<T>::type>;
template <typename T> using reference = thrust::tagged_reference<T, tag>;

namespace detail {
enum memory_kind { device_memory, managed_memory, pinned_memory };

/* CUDA's cuda_memory_resource, with the backend's calls (whose last parameter, the call site, is defaulted) */
template <memory_kind Kind, typename Pointer>
class cuda_memory_resource final : public thrust::mr::memory_resource<Pointer> {
  public:
    Pointer do_allocate(std::size_t bytes, std::size_t alignment = THRUST_MR_DEFAULT_ALIGNMENT) override {
        (void)alignment;
        void *p = nullptr;
        cudaError_t e = Kind == device_memory    ? cudaMalloc(&p, bytes)
                        : Kind == managed_memory ? cudaMallocManaged(&p, bytes, cudaMemAttachGlobal)
                                                 : cudaMallocHost(&p, bytes);
        if (e != cudaSuccess) {
            cudaGetLastError(); /* as CUDA's Thrust: the failure is the exception, not a pending CUDA error */
            throw thrust::system::detail::bad_alloc(thrust::cuda_category().message(e).c_str());
        }
        return Pointer(p);
    }
    void do_deallocate(Pointer p, std::size_t, std::size_t) override {
        /* unchecked, as in CCCL 3: a destructor must not throw (after a sticky error, or at exit) */
        void *raw = thrust::detail::pointer_traits<Pointer>::get(p);
        if (Kind == pinned_memory) cudaFreeHost(raw);
        else cudaFree(raw);
    }
};
} // namespace detail

typedef detail::cuda_memory_resource<detail::device_memory, pointer<void>> memory_resource;
typedef detail::cuda_memory_resource<detail::managed_memory, universal_pointer<void>> universal_memory_resource;
typedef detail::cuda_memory_resource<detail::pinned_memory, universal_pointer<void>>
    universal_host_pinned_memory_resource;

template <typename T> using allocator = thrust::mr::stateless_resource_allocator<T, memory_resource>;
template <typename T>
using universal_allocator = thrust::mr::stateless_resource_allocator<T, universal_memory_resource>;

} // namespace cudawb
} // namespace system
THRUST_NAMESPACE_END
