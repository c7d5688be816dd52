/* cub/warp/warp_reduce.cuh on the CPU backend: cub::WarpReduce (cudawb_cub.cuh says how), over logical
   warps of a power-of-two number of lanes up to 32. As in CUB, the result is lane 0's (the other lanes get
   their input back here), every lane of the logical warp must call, each logical warp has its own
   TempStorage, and reusing it needs a __syncwarp() first. The segmented reductions are not emulated. */
#ifndef CUDAWB_CUB_WARP_REDUCE_CUH
#define CUDAWB_CUB_WARP_REDUCE_CUH
#include <cub/cudawb_cub.cuh>

namespace cub {
template <typename T, int LOGICAL_WARP_THREADS = 32> class WarpReduce {
    static_assert(cudawb_detail::logical_warp_ok(LOGICAL_WARP_THREADS),
                  CUDAWB_CUB_NOT_EMULATED("WarpReduce with a logical warp that is not a power of two up to 32"));

public:
    struct TempStorage {
        T v[LOGICAL_WARP_THREADS];
    };

private:
    TempStorage &s;
    int lane;
    unsigned mask;

public:
    __device__ WarpReduce(TempStorage &temp_storage) : s(temp_storage), lane(0) {
        mask = cudawb_detail::logical_warp(LOGICAL_WARP_THREADS, &lane);
    }

    /* the first valid_items lanes' inputs combined with reduction_op, in lane order */
    template <typename ReductionOp> __device__ T Reduce(T input, ReductionOp reduction_op, int valid_items) {
        return cudawb_detail::gather_reduce(s.v, lane, LOGICAL_WARP_THREADS, input, reduction_op, valid_items, mask);
    }
    template <typename ReductionOp> __device__ T Reduce(T input, ReductionOp reduction_op) {
        return Reduce(input, reduction_op, LOGICAL_WARP_THREADS);
    }
    __device__ T Sum(T input) { return Reduce(input, cudawb_detail::plus(), LOGICAL_WARP_THREADS); }
    __device__ T Sum(T input, int valid_items) { return Reduce(input, cudawb_detail::plus(), valid_items); }
    template <typename FlagT> __device__ T HeadSegmentedSum(T, FlagT) {
        static_assert(cudawb_detail::not_emulated<FlagT>::value, CUDAWB_CUB_NOT_EMULATED("WarpReduce::HeadSegmentedSum"));
        return T();
    }
    template <typename FlagT> __device__ T TailSegmentedSum(T, FlagT) {
        static_assert(cudawb_detail::not_emulated<FlagT>::value, CUDAWB_CUB_NOT_EMULATED("WarpReduce::TailSegmentedSum"));
        return T();
    }
    template <typename FlagT, typename Op> __device__ T HeadSegmentedReduce(T, FlagT, Op) {
        static_assert(cudawb_detail::not_emulated<FlagT>::value, CUDAWB_CUB_NOT_EMULATED("WarpReduce::HeadSegmentedReduce"));
        return T();
    }
    template <typename FlagT, typename Op> __device__ T TailSegmentedReduce(T, FlagT, Op) {
        static_assert(cudawb_detail::not_emulated<FlagT>::value, CUDAWB_CUB_NOT_EMULATED("WarpReduce::TailSegmentedReduce"));
        return T();
    }
};
} // namespace cub
#endif
