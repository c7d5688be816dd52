/* cub/block/block_reduce.cuh on the CPU backend: cub::BlockReduce (cudawb_cub.cuh says how). As in CUB, the
   result is thread 0's (the others get their own input back here; CUB leaves theirs undefined), every
   thread of the block must call, and reusing the TempStorage needs a __syncthreads() first. */
#ifndef CUDAWB_CUB_BLOCK_REDUCE_CUH
#define CUDAWB_CUB_BLOCK_REDUCE_CUH
#include <cub/cudawb_cub.cuh>

namespace cub {
template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockReduce {
    enum { BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z };

public:
    struct TempStorage {
        T v[BLOCK_THREADS];
    };

private:
    TempStorage &s;
    int tid;

public:
    __device__ BlockReduce() : s(cudawb_detail::private_storage<TempStorage>()), tid(cudawb_detail::linear_tid()) {}
    __device__ BlockReduce(TempStorage &temp_storage) : s(temp_storage), tid(cudawb_detail::linear_tid()) {}

    /* the first num_valid threads' inputs combined with reduction_op, in thread order */
    template <typename ReductionOp> __device__ T Reduce(T input, ReductionOp reduction_op, int num_valid) {
        return cudawb_detail::gather_reduce(s.v, tid, BLOCK_THREADS, input, reduction_op, num_valid, 0);
    }
    template <typename ReductionOp> __device__ T Reduce(T input, ReductionOp reduction_op) {
        return cudawb_detail::gather_reduce(s.v, tid, BLOCK_THREADS, input, reduction_op, BLOCK_THREADS, 0);
    }
    template <int ITEMS_PER_THREAD, typename ReductionOp>
    __device__ T Reduce(T (&inputs)[ITEMS_PER_THREAD], ReductionOp reduction_op) {
        T mine = cudawb_detail::fold(inputs, ITEMS_PER_THREAD, reduction_op);
        return cudawb_detail::gather_reduce(s.v, tid, BLOCK_THREADS, mine, reduction_op, BLOCK_THREADS, 0);
    }
    __device__ T Sum(T input) { return Reduce(input, cudawb_detail::plus(), BLOCK_THREADS); }
    __device__ T Sum(T input, int num_valid) { return Reduce(input, cudawb_detail::plus(), num_valid); }
    template <int ITEMS_PER_THREAD> __device__ T Sum(T (&inputs)[ITEMS_PER_THREAD]) {
        return Reduce(inputs, cudawb_detail::plus());
    }
};
} // namespace cub
#endif
