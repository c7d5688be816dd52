/* cub/warp/warp_scan.cuh on the CPU backend: cub::WarpScan (cudawb_cub.cuh says how), over logical warps of
   a power-of-two number of lanes up to 32: sums and scans with an operator, with or without the warp's
   aggregate. Every lane of the logical warp must call, each logical warp has its own TempStorage. */
#ifndef CUDAWB_CUB_WARP_SCAN_CUH
#define CUDAWB_CUB_WARP_SCAN_CUH
#include <cub/cudawb_cub.cuh>

namespace cub {
template <typename T, int LOGICAL_WARP_THREADS = 32> class WarpScan {
    static_assert(cudawb_detail::logical_warp_ok(LOGICAL_WARP_THREADS),
                  CUDAWB_CUB_NOT_EMULATED("WarpScan with a logical warp that is not a power of two up to 32"));

public:
    struct TempStorage {
        T in[LOGICAL_WARP_THREADS], out[LOGICAL_WARP_THREADS], total;
    };

private:
    TempStorage &s;
    int lane;
    unsigned mask;
    template <typename ScanOp>
    __device__ void Scan(T input, T &output, ScanOp op, cudawb_detail::scan_kind kind, T init, T *aggregate) {
        cudawb_detail::gather_scan(s.in, s.out, &s.total, lane, LOGICAL_WARP_THREADS, input, output, op, kind, init,
                            aggregate, mask);
    }

public:
    __device__ WarpScan(TempStorage &temp_storage) : s(temp_storage), lane(0) {
        mask = cudawb_detail::logical_warp(LOGICAL_WARP_THREADS, &lane);
    }

    __device__ void InclusiveSum(T input, T &output) {
        Scan(input, output, cudawb_detail::plus(), cudawb_detail::INCLUSIVE, T(), nullptr);
    }
    __device__ void InclusiveSum(T input, T &output, T &warp_aggregate) {
        Scan(input, output, cudawb_detail::plus(), cudawb_detail::INCLUSIVE, T(), &warp_aggregate);
    }
    __device__ void ExclusiveSum(T input, T &output) {
        Scan(input, output, cudawb_detail::plus(), cudawb_detail::EXCLUSIVE_INIT, T(), nullptr);
    }
    __device__ void ExclusiveSum(T input, T &output, T &warp_aggregate) {
        Scan(input, output, cudawb_detail::plus(), cudawb_detail::EXCLUSIVE_INIT, T(), &warp_aggregate);
    }
    template <typename ScanOp> __device__ void InclusiveScan(T input, T &output, ScanOp scan_op) {
        Scan(input, output, scan_op, cudawb_detail::INCLUSIVE, T(), nullptr);
    }
    template <typename ScanOp> __device__ void InclusiveScan(T input, T &output, ScanOp scan_op, T &warp_aggregate) {
        Scan(input, output, scan_op, cudawb_detail::INCLUSIVE, T(), &warp_aggregate);
    }
    template <typename ScanOp> __device__ void ExclusiveScan(T input, T &output, T initial_value, ScanOp scan_op) {
        Scan(input, output, scan_op, cudawb_detail::EXCLUSIVE_INIT, initial_value, nullptr);
    }
    template <typename ScanOp>
    __device__ void ExclusiveScan(T input, T &output, T initial_value, ScanOp scan_op, T &warp_aggregate) {
        Scan(input, output, scan_op, cudawb_detail::EXCLUSIVE_INIT, initial_value, &warp_aggregate);
    }
};
} // namespace cub
#endif
