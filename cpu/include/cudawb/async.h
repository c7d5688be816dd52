/* cudawb/async.h: what <cuda/barrier>, <cuda/pipeline> and <cooperative_groups/memcpy_async.h> share on the
   CPU backend: the thread scopes, aligned_size_t, the copy an asynchronous copy does, and the runtime's way
   to make a GPU thread wait for the others (src/fiber.cpp).
   An asynchronous copy is done at the call: a copy that has completed before anyone waits for it is one of
   the orders the GPU allows, and every wait that CUDA documents as covering it comes later. */
#ifndef CUDAWB_ASYNC_H
#define CUDAWB_ASYNC_H
#include <stddef.h>
#include <string.h>
#include "device.h"

/* The calling GPU thread sleeps until another thread of its block calls cudawb_await_wake (then it looks
   again at what it waits for): the fiber scheduler runs the others meanwhile. Only in a kernel the rewriter
   runs under the general scheduler (it names a block-scope barrier or pipeline, or cooperative groups). */
void cudawb_await(void);
void cudawb_await_wake(void);

namespace cuda {
/* the threads a synchronization object coordinates (libcu++'s cuda::thread_scope) */
enum thread_scope {
    thread_scope_system = 0,
    thread_scope_device = 1,
    thread_scope_block = 2,
    thread_scope_thread = 3
};

/* a byte count that promises its pointers' and its own alignment to Alignment (a power of two) */
template <size_t Alignment> struct aligned_size_t {
    static_assert(Alignment && !(Alignment & (Alignment - 1)), "aligned_size_t: a power of two");
    static constexpr size_t align = Alignment;
    size_t value;
    constexpr explicit aligned_size_t(size_t size) : value(size) {}
    constexpr operator size_t() const { return value; }
};
} // namespace cuda

namespace cudawb {
/* the part of a group's collective copy that thread `rank` of `size` does: all of it is done once every
   thread of the group has called, which is when CUDA's waits for it can return */
inline void copy_share(void *dst, const void *src, size_t bytes, unsigned long long rank,
                       unsigned long long size) {
    size_t each = (size_t)((bytes + size - 1) / size), from = (size_t)rank * each;
    if (from >= bytes) return;
    memcpy((char *)dst + from, (const char *)src + from, bytes - from < each ? bytes - from : each);
}
/* the racecheck's view of a completed wait: the thread passed a barrier (as at __syncthreads) */
inline void passed_barrier() {
    if (__builtin_expect(shared_checks == SH_RACECHECK, 0)) race_barrier();
}
} // namespace cudawb
#endif
