/* cooperative_groups/reduce.h on the CPU backend: cg::reduce over a tile or a coalesced group, with CUDA's
   function objects. Each rank combines with the rank `offset` above it, doubling the offset, so rank 0 ends
   with the whole group (any size), which it then gives to every rank, as cg::reduce returns it to all. */
#ifndef CUDAWB_CG_REDUCE_H
#define CUDAWB_CG_REDUCE_H
#include <string.h>
#include <type_traits>
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

/* a tile of more than 32 threads: each warp reduces its part, lane 0 leaves it in the block's scratch (per
   worker, i.e. per running block, as __shared__ memory is here), and every thread combines its tile's parts
   in warp order */
template <unsigned N, class P, class T, class Op>
inline typename std::enable_if<(N > 32), T>::type reduce(const thread_block_tile<N, P> &g, T value, Op op) {
    static_assert(sizeof(T) <= 64, "cg::reduce over more than 32 threads: values of at most 64 bytes");
    static __thread unsigned char scratch[32][64];
    T part = reduce(thread_block_tile<32, void>(), value, op);
    unsigned warp = details::block_rank() / 32, first = (unsigned)g.meta_group_rank() * (N / 32);
    if (details::block_rank() % 32 == 0) memcpy(scratch[warp], &part, sizeof part);
    g.sync();
    T total;
    memcpy(&total, scratch[first], sizeof total);
    unsigned warps = (details::block_threads() + 31) / 32;
    for (unsigned w = first + 1; w < first + N / 32 && w < warps; w++) {
        T next;
        memcpy(&next, scratch[w], sizeof next);
        total = op(total, next);
    }
    g.sync();  /* the scratch is free again */
    return total;
}
} // namespace cooperative_groups
#endif
