/* cudawb/lockstep.h: what the lockstep copy of a kernel's body uses (cpu/tools/lockstep.h writes that copy).
   The copy runs a group of GPU threads together: a warp (kernels with __syncthreads, one fiber per warp) or a
   whole block (barrier-free kernels), each lane loop walking the group's threads as runs of consecutive x, so
   that the lane index and threadIdx.x grow together and g++ can vectorize. */
#ifndef CUDAWB_LOCKSTEP_H
#define CUDAWB_LOCKSTEP_H
#include <string.h>
#include <type_traits>
#include "device.h"

/* set by the runtime while a kernel's lockstep copy is to run (src/launch.cpp): never under the checkers or
   a shuffled order, which need a hook per thread */
extern __thread int cudawb_lockstep;

namespace cudawb {
/* a run of lanes with consecutive x: threads (x0..x1-1, y, z) are lanes d + x */
struct ls_seg { int x0, x1, d; unsigned y, z; };

/* the lanes of the group that starts at threadIdx (at most `group` threads, fewer at the block's end) */
inline int ls_segments(int group, ls_seg *s, int *count) {
    const unsigned bx = blockDim.x, by = blockDim.y, n = bx * by * blockDim.z;
    const unsigned f0 = threadIdx.x + bx * (threadIdx.y + by * threadIdx.z);
    const int c = n - f0 < (unsigned)group ? (int)(n - f0) : group;
    int ns = 0;
    for (int l = 0; l < c;) {
        const unsigned f = f0 + (unsigned)l, row = f / bx;
        const int x = (int)(f % bx);
        int x1 = x + (c - l);
        if (x1 > (int)bx) x1 = (int)bx;
        s[ns++] = ls_seg{x, x1, l - x, row % by, row / by};
        l += x1 - x;
    }
    *count = c;
    return ns;
}

/* whether every thread's global index fits in an int in each dimension: the copy then computes
   blockIdx.x * blockDim.x + threadIdx.x as an int (cpu/tools/lockstep.h, init_text) */
inline bool ls_int_grid(void) {
    return (unsigned long long)gridDim.x * blockDim.x <= 0x7FFFFFFFull &&
           (unsigned long long)gridDim.y * blockDim.y <= 0x7FFFFFFFull &&
           (unsigned long long)gridDim.z * blockDim.z <= 0x7FFFFFFFull;
}

/* whether every lane of the group is in mask m, and whether any is */
inline void ls_flags(const bool *m, int count, bool *all, bool *any) {
    /* bools are bytes 0 and 1: memchr's vector loop finds a 0 or a 1 in a block of 1024 lanes at once */
    *all = count > 0 && !memchr(m, 0, (size_t)count);
    *any = count > 0 && memchr(m, 1, (size_t)count);
}
} // namespace cudawb
#endif
