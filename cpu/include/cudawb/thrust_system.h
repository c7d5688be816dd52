/* cudawb/thrust_system.h: the CPU backend's Thrust device system, thrust::system::cudawb: its tag (what
   thrust::device_system_tag names) and its execution policy (thrust::device). It derives from Thrust's
   sequential system, whose C++ algorithms it runs; cudawb/thrust_device.h makes each algorithm a kernel on
   device memory and the copies to and from the host cudaMemcpy calls. Kept small: Thrust's own iterator
   headers include it, before most of Thrust exists. */
#pragma once
#include <thrust/detail/config.h>
#include <thrust/detail/allocator_aware_execution_policy.h>
#include <thrust/system/detail/sequential/execution_policy.h>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cudawb {
namespace detail {
struct tag;
template <typename> struct execution_policy;
template <> struct execution_policy<tag> : thrust::system::detail::sequential::execution_policy<tag> {};
struct tag : execution_policy<tag> {};
/* Not derived from the cpp system's policy (which converts to cpp::tag): host and device stay two systems,
   so that a copy between them is a cross-system copy (cudaMemcpy), as with CUDA's system. */
template <typename Derived>
struct execution_policy : thrust::system::detail::sequential::execution_policy<Derived> {
    typedef tag tag_type;
    operator tag() const { return tag(); }
};
/* par.on(stream): the algorithm's kernel runs on that stream, which the call then synchronizes */
struct execute_on_stream : execution_policy<execute_on_stream> {
    cudaStream_t stream;
    explicit execute_on_stream(cudaStream_t s) : stream(s) {}
};
struct par_t : execution_policy<par_t>, thrust::detail::allocator_aware_execution_policy<execution_policy> {
    constexpr par_t() : execution_policy<par_t>() {}
    execute_on_stream on(cudaStream_t s) const { return execute_on_stream(s); }
};
template <class D> cudaStream_t stream_of(execution_policy<D> &) { return cudaStreamLegacy; } /* CCCL's default */
inline cudaStream_t stream_of(execute_on_stream &e) { return e.stream; }
} // namespace detail
using detail::execution_policy;
using detail::tag;
THRUST_INLINE_CONSTANT detail::par_t par;
THRUST_INLINE_CONSTANT detail::par_t par_nosync; /* synchronizes all the same: a correct program cannot tell */
} // namespace cudawb
} // namespace system
/* CUDA's policies, thrust::cuda::par (and par.on(stream)) and par_nosync, are this system's */
namespace cuda {
using thrust::system::cudawb::par;
using thrust::system::cudawb::par_nosync;
} // namespace cuda
THRUST_NAMESPACE_END
