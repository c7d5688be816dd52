/* cooperative_groups/memcpy_async.h on the CPU backend: cg::memcpy_async, cg::wait and cg::wait_prior.
   The group's threads share the copy, each doing its part at its call (cudawb/async.h); wait is the group's
   sync, after which every thread has called and the whole copy is there, as CUDA documents. */
#ifndef CUDAWB_CG_MEMCPY_ASYNC_H
#define CUDAWB_CG_MEMCPY_ASYNC_H
#include "../cooperative_groups.h"
#include "../cudawb/async.h"

namespace cooperative_groups {
template <class Group> inline void memcpy_async(const Group &g, void *dst, const void *src, size_t bytes) {
    cudawb::copy_share(dst, src, bytes, g.thread_rank(), g.size());
}
template <class Group, size_t A>
inline void memcpy_async(const Group &g, void *dst, const void *src, cuda::aligned_size_t<A> bytes) {
    cudawb::copy_share(dst, src, bytes, g.thread_rank(), g.size());
}
/* the typed form: elements, the destination's count first; copies the smaller of the two counts */
template <class Group, class T>
inline void memcpy_async(const Group &g, T *dst, size_t dst_count, const T *src, size_t src_count) {
    cudawb::copy_share(dst, src, (dst_count < src_count ? dst_count : src_count) * sizeof(T), g.thread_rank(),
                       g.size());
}
/* every copy the group issued is complete: the copies are done, the group meets */
template <class Group> inline void wait(const Group &g) { g.sync(); }
template <unsigned Prior, class Group> inline void wait_prior(const Group &g) { g.sync(); }
} // namespace cooperative_groups
#endif
