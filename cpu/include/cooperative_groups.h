/* cooperative_groups.h on the CPU backend: CUDA's cooperative groups built on the backend's barriers and warp
   primitives (cudawb/warp.h). A kernel that names them runs its threads as fibers under the general scheduler
   (the rewriter sees the names), so a group's sync and shuffles make its threads meet as on a GPU.
   Provided: thread_block (this_thread_block), thread_block_tile<N> for N = 1, 2, 4, ..., 32
   (tiled_partition<N>), the dynamic tiled_partition(parent, n) as a thread_group, coalesced_group
   (coalesced_threads, labeled_partition), grid_group (this_grid, with sync under
   cudaLaunchCooperativeKernel), reduce with plus/less/greater/bit_and/bit_or/bit_xor
   (cooperative_groups/reduce.h), and the free sync/thread_rank. */
#ifndef CUDAWB_COOPERATIVE_GROUPS_H
#define CUDAWB_COOPERATIVE_GROUPS_H
#include <string.h>
#include <type_traits>
#include "cuda_runtime.h"

void cudawb_grid_sync(void);
int cudawb_grid_valid(void);

namespace cooperative_groups {
namespace details {
inline unsigned block_rank() { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
/* the lanes of a tile of `size` threads (a power of two up to 32) that holds the calling thread */
inline unsigned tile_mask(unsigned size) {
    unsigned lane = block_rank() % 32, base = lane / size * size;
    return (size == 32 ? 0xffffffffu : (1u << size) - 1) << base;
}
inline unsigned nth_lane(unsigned mask, unsigned n) { /* the lane of the n-th set bit of mask */
    for (unsigned l = 0; l < 32; l++)
        if (mask >> l & 1 && n-- == 0) return l;
    return 32;
}
/* a group's shuffles move a value of any size, as CUDA's do (a uint4, a struct): 8 bytes per warp shuffle,
   the pieces one after another (the raw __shfl_sync takes at most 8 bytes, as nvcc's does) */
template <class T, class F> inline typename std::enable_if<(sizeof(T) <= 8), T>::type by_pieces(T var, F move) {
    return move(var);
}
template <class T, class F> inline typename std::enable_if<(sizeof(T) > 8), T>::type by_pieces(T var, F move) {
    unsigned long long piece[(sizeof(T) + 7) / 8] = {};
    memcpy(piece, &var, sizeof var);
    for (unsigned long long &p : piece) p = move(p);
    memcpy(&var, piece, sizeof var);
    return var;
}
} // namespace details

/* a group of threads of a block (tiles of any size chosen at run time): size, rank, sync */
class thread_group {
protected:
    unsigned size_, rank_, mask_;  /* mask_: the lanes, when the group fits in one warp; 0 for the block */
public:
    thread_group(unsigned size, unsigned rank, unsigned mask) : size_(size), rank_(rank), mask_(mask) {}
    unsigned long long size() const { return size_; }
    /* CUDA 13 declares num_threads() on a plain thread_group but defines it only on the concrete groups: nvcc
       stops at ptxas ("Unresolved extern function ...thread_group11num_threads", measured on the H200).
       size() is the one a thread_group has. */
    unsigned long long num_threads() const = delete;
    unsigned long long thread_rank() const { return rank_; }
    unsigned lanes() const { return mask_; } /* the CPU backend's own: the group's lanes of its warp */
    void sync() const {
        if (mask_) __syncwarp(mask_);
        else __syncthreads();
    }
};

class thread_block : public thread_group {
public:
    thread_block() : thread_group(details::block_threads(), details::block_rank(), 0) {}
    static void sync() { __syncthreads(); }
    static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    static dim3 dim_threads() { return blockDim; }
    static dim3 group_dim() { return blockDim; }
    static unsigned long long thread_rank() { return details::block_rank(); }
    static unsigned long long size() { return details::block_threads(); }
    static unsigned long long num_threads() { return details::block_threads(); }
};
inline thread_block this_thread_block() { return thread_block(); }
/* the shared scratch CUDA's tiles of more than 32 threads use on older GPUs (declared __shared__ by the
   kernel, handed to this_thread_block); here the tiles need none of it */
template <unsigned MaxBlockSize = 1024> struct block_tile_memory {
    char unused;
};
template <unsigned MaxBlockSize> inline thread_block this_thread_block(block_tile_memory<MaxBlockSize> &) {
    return thread_block();
}

/* a tile of N threads (N a power of two up to 1024): consecutive threads of the block; ParentT only names
   the group it was made from, as in CUDA (a tile converts to one with ParentT void). Up to 32 threads a tile
   is within one warp and has the warp's shuffles and votes. A larger tile (CUDA 12's multi-warp tiles) has
   sync and cg::reduce only, and its sync is the block's barrier: right when every tile of the block syncs
   together, as uniform code does (a GPU would also let the tiles sync apart). */
/* what only a tile within one warp has here: refused at compile time for a larger one, never a wrong answer */
#define CUDAWB_WARP_TILE_ONLY \
    static_assert(N <= 32, "the CPU backend gives a tile of more than 32 threads sync, ranks and cg::reduce only")
template <unsigned N, class ParentT = void> class thread_block_tile : public thread_group {
    static_assert(N >= 1 && N <= 1024 && (N & (N - 1)) == 0,
                  "a tile has a power of two of threads, at most 1024");
public:
    thread_block_tile() : thread_group(N, details::block_rank() % N, N <= 32 ? details::tile_mask(N) : 0) {}
    template <class P> thread_block_tile(const thread_block_tile<N, P> &) : thread_block_tile() {}
    static constexpr unsigned long long size() { return N; }
    static constexpr unsigned long long num_threads() { return N; }
    static unsigned long long thread_rank() { return details::block_rank() % N; }
    static unsigned long long meta_group_rank() { return details::block_rank() / N; }
    static unsigned long long meta_group_size() { return (details::block_threads() + N - 1) / N; }
    void sync() const {
        if (N <= 32) __syncwarp(mask_);
        else __syncthreads();
    }
    template <class T> T shfl(T var, int src) const {
        CUDAWB_WARP_TILE_ONLY;
        return details::by_pieces(var, [&](auto v) { return __shfl_sync(mask_, v, src, N); });
    }
    template <class T> T shfl_down(T var, unsigned delta) const {
        CUDAWB_WARP_TILE_ONLY;
        return details::by_pieces(var, [&](auto v) { return __shfl_down_sync(mask_, v, delta, N); });
    }
    template <class T> T shfl_up(T var, unsigned delta) const {
        CUDAWB_WARP_TILE_ONLY;
        return details::by_pieces(var, [&](auto v) { return __shfl_up_sync(mask_, v, delta, N); });
    }
    template <class T> T shfl_xor(T var, unsigned lanes) const {
        CUDAWB_WARP_TILE_ONLY;
        return details::by_pieces(var, [&](auto v) { return __shfl_xor_sync(mask_, v, (int)lanes, N); });
    }
    int any(int pred) const {
        CUDAWB_WARP_TILE_ONLY;
        return __any_sync(mask_, pred);
    }
    int all(int pred) const {
        CUDAWB_WARP_TILE_ONLY;
        return __all_sync(mask_, pred);
    }
    /* bit i for the tile's thread of rank i */
    unsigned ballot(int pred) const {
        CUDAWB_WARP_TILE_ONLY;
        return __ballot_sync(mask_, pred) >> __builtin_ctz(mask_);
    }
    template <class T> unsigned match_any(T value) const {
        CUDAWB_WARP_TILE_ONLY;
        return __match_any_sync(mask_, value) >> __builtin_ctz(mask_);
    }
    template <class T> unsigned match_all(T value, int &pred) const {
        CUDAWB_WARP_TILE_ONLY;
        return __match_all_sync(mask_, value, &pred) >> __builtin_ctz(mask_);
    }
};
template <unsigned N, class Parent> inline thread_block_tile<N, Parent> tiled_partition(const Parent &) {
    return thread_block_tile<N, Parent>();
}
/* the dynamic form: a thread_group of n threads (a power of two up to 32, as the CPU backend provides) */
inline thread_group tiled_partition(const thread_group &, unsigned n) {
    if (n == 0 || n > 32 || (n & (n - 1))) {
        cudawb_printf("cudawb: tiled_partition(parent, %u): the CPU backend provides tiles of 1 to 32 threads "
                      "(a power of two)\n", n);
        __trap();
    }
    return thread_group(n, details::block_rank() % n, details::tile_mask(n));
}

/* the threads of the warp that are here together (__activemask), ranked in lane order */
class coalesced_group : public thread_group {
    static unsigned below(unsigned mask) { return __popc(mask & ((1u << (details::block_rank() % 32)) - 1)); }
public:
    explicit coalesced_group(unsigned mask) : thread_group(__popc(mask), below(mask), mask) {}
    unsigned long long num_threads() const { return size_; }
    unsigned long long meta_group_rank() const { return 0; }
    unsigned long long meta_group_size() const { return 1; }
    void sync() const { __syncwarp(mask_); }
    template <class T> T shfl(T var, unsigned src_rank) const {
        return __shfl_sync(mask_, var, (int)details::nth_lane(mask_, src_rank % size_));
    }
    template <class T> T shfl_down(T var, unsigned delta) const {
        unsigned src = rank_ + delta < size_ ? rank_ + delta : rank_;
        return __shfl_sync(mask_, var, (int)details::nth_lane(mask_, src));
    }
    template <class T> T shfl_up(T var, unsigned delta) const {
        unsigned src = rank_ >= delta ? rank_ - delta : rank_;
        return __shfl_sync(mask_, var, (int)details::nth_lane(mask_, src));
    }
    int any(int pred) const { return __any_sync(mask_, pred); }
    int all(int pred) const { return __all_sync(mask_, pred); }
};
inline coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

/* the threads of a warp group with the same label: a coalesced_group each (ranks in lane order) */
template <class T> inline coalesced_group labeled_partition(const coalesced_group &g, T label) {
    return coalesced_group(__match_any_sync(g.lanes(), label));
}
template <unsigned N, class P, class T>
inline coalesced_group labeled_partition(const thread_block_tile<N, P> &g, T label) {
    static_assert(N <= 32, "labeled_partition: a tile of at most 32 threads");
    return coalesced_group(__match_any_sync(g.lanes(), label));
}

/* every thread of the grid; sync() only under cudaLaunchCooperativeKernel */
class grid_group {
public:
    static bool is_valid() { return cudawb_grid_valid() != 0; }
    static void sync() { cudawb_grid_sync(); }
    static unsigned long long num_blocks() { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
    static unsigned long long block_rank() {
        return ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    }
    static unsigned long long num_threads() { return num_blocks() * details::block_threads(); }
    static unsigned long long size() { return num_threads(); }
    static unsigned long long thread_rank() { return block_rank() * details::block_threads() + details::block_rank(); }
    static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    static dim3 dim_blocks() { return gridDim; }
    static dim3 group_dim() { return gridDim; }
};
inline grid_group this_grid() { return grid_group(); }

template <class G> inline void sync(const G &g) { g.sync(); }
template <class G> inline unsigned long long thread_rank(const G &g) { return g.thread_rank(); }
template <class G> inline unsigned long long group_size(const G &g) { return g.size(); }
} // namespace cooperative_groups
#include "cooperative_groups/reduce.h"
#endif
