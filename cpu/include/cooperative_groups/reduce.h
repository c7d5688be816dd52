/* cooperative_groups/reduce.h on the CPU backend: cg::reduce over a tile or a coalesced group, with CUDA's
   function objects. Each rank combines with the rank `offset` above it, doubling the offset, so rank 0 ends
   with the whole group (any size), which it then gives to every rank, as cg::reduce returns it to all. */
#ifndef CUDAWB_CG_REDUCE_H
#define CUDAWB_CG_REDUCE_H
#include "../cooperative_groups.h"

namespace cooperative_groups {
template <class T> struct plus { T operator()(const T &a, const T &b) const { return a + b; } };
template <class T> struct less { T operator()(const T &a, const T &b) const { return b < a ? b : a; } };
template <class T> struct greater { T operator()(const T &a, const T &b) const { return a < b ? b : a; } };
template <class T> struct bit_and { T operator()(const T &a, const T &b) const { return a & b; } };
template <class T> struct bit_or { T operator()(const T &a, const T &b) const { return a | b; } };
template <class T> struct bit_xor { T operator()(const T &a, const T &b) const { return a ^ b; } };

template <class Group, class T, class Op> inline T reduce(const Group &g, T value, Op op) {
    unsigned n = (unsigned)g.size(), rank = (unsigned)g.thread_rank();
    for (unsigned offset = 1; offset < n; offset *= 2) {
        T other = g.shfl_down(value, offset);
        if (rank + offset < n) value = op(value, other);
    }
    return g.shfl(value, 0);
}
} // namespace cooperative_groups
#endif
