/* cub/block/block_scan.cuh on the CPU backend: cub::BlockScan (cudawb_cub.cuh says how), its scans of one
   item per thread (sums, and scans with an operator, with or without the block's aggregate) and its sums of
   several items per thread. Every thread of the block must call; reusing the TempStorage needs a
   __syncthreads() first, as in CUB. The prefix-callback forms are not emulated. */
#ifndef CUDAWB_CUB_BLOCK_SCAN_CUH
#define CUDAWB_CUB_BLOCK_SCAN_CUH
#include <cub/cudawb_cub.cuh>

namespace cub {
template <typename T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockScan {
    enum { BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z };

public:
    struct TempStorage {
        T in[BLOCK_THREADS], out[BLOCK_THREADS], total;
    };

private:
    TempStorage &s;
    int tid;
    template <typename ScanOp>
    __device__ void Scan(T input, T &output, ScanOp op, cudawb_detail::scan_kind kind, T init, T *aggregate) {
        cudawb_detail::gather_scan(s.in, s.out, &s.total, tid, BLOCK_THREADS, input, output, op, kind, init, aggregate, 0);
    }
    /* several items per thread: each thread's total scanned across the block, then its own items */
    template <int N> __device__ void SumItems(T (&input)[N], T (&output)[N], bool inclusive, T *aggregate) {
        T acc;
        Scan(cudawb_detail::fold(input, N, cudawb_detail::plus()), acc, cudawb_detail::plus(), cudawb_detail::EXCLUSIVE_INIT, T(), aggregate);
        for (int i = 0; i < N; i++) {
            T x = input[i];  // input and output may be one array
            if (inclusive) acc = acc + x;
            output[i] = acc;
            if (!inclusive) acc = acc + x;
        }
    }

public:
    __device__ BlockScan() : s(cudawb_detail::private_storage<TempStorage>()), tid(cudawb_detail::linear_tid()) {}
    __device__ BlockScan(TempStorage &temp_storage) : s(temp_storage), tid(cudawb_detail::linear_tid()) {}

    __device__ void ExclusiveSum(T input, T &output) {
        Scan(input, output, cudawb_detail::plus(), cudawb_detail::EXCLUSIVE_INIT, T(), nullptr);
    }
    __device__ void ExclusiveSum(T input, T &output, T &block_aggregate) {
        Scan(input, output, cudawb_detail::plus(), cudawb_detail::EXCLUSIVE_INIT, T(), &block_aggregate);
    }
    template <int N> __device__ void ExclusiveSum(T (&input)[N], T (&output)[N]) { SumItems(input, output, false, nullptr); }
    template <int N> __device__ void ExclusiveSum(T (&input)[N], T (&output)[N], T &block_aggregate) {
        SumItems(input, output, false, &block_aggregate);
    }
    __device__ void InclusiveSum(T input, T &output) {
        Scan(input, output, cudawb_detail::plus(), cudawb_detail::INCLUSIVE, T(), nullptr);
    }
    __device__ void InclusiveSum(T input, T &output, T &block_aggregate) {
        Scan(input, output, cudawb_detail::plus(), cudawb_detail::INCLUSIVE, T(), &block_aggregate);
    }
    template <int N> __device__ void InclusiveSum(T (&input)[N], T (&output)[N]) { SumItems(input, output, true, nullptr); }
    template <int N> __device__ void InclusiveSum(T (&input)[N], T (&output)[N], T &block_aggregate) {
        SumItems(input, output, true, &block_aggregate);
    }
    template <typename ScanOp> __device__ void ExclusiveScan(T input, T &output, T initial_value, ScanOp scan_op) {
        Scan(input, output, scan_op, cudawb_detail::EXCLUSIVE_INIT, initial_value, nullptr);
    }
    template <typename ScanOp>
    __device__ void ExclusiveScan(T input, T &output, T initial_value, ScanOp scan_op, T &block_aggregate) {
        Scan(input, output, scan_op, cudawb_detail::EXCLUSIVE_INIT, initial_value, &block_aggregate);
    }
    /* without an initial value thread 0's output is undefined in CUB: its input here */
    template <typename ScanOp> __device__ void ExclusiveScan(T input, T &output, ScanOp scan_op) {
        Scan(input, output, scan_op, cudawb_detail::EXCLUSIVE, T(), nullptr);
    }
    template <typename ScanOp> __device__ void ExclusiveScan(T input, T &output, ScanOp scan_op, T &block_aggregate) {
        Scan(input, output, scan_op, cudawb_detail::EXCLUSIVE, T(), &block_aggregate);
    }
    template <typename ScanOp> __device__ void InclusiveScan(T input, T &output, ScanOp scan_op) {
        Scan(input, output, scan_op, cudawb_detail::INCLUSIVE, T(), nullptr);
    }
    template <typename ScanOp> __device__ void InclusiveScan(T input, T &output, ScanOp scan_op, T &block_aggregate) {
        Scan(input, output, scan_op, cudawb_detail::INCLUSIVE, T(), &block_aggregate);
    }
    /* the forms with a prefix callback (several tiles in one block): refused, at the program's line */
    template <typename Callback> __device__ void ExclusiveSum(T, T &, Callback &) {
        static_assert(cudawb_detail::not_emulated<Callback>::value, CUDAWB_CUB_NOT_EMULATED("BlockScan with a prefix callback"));
    }
    template <typename Callback> __device__ void InclusiveSum(T, T &, Callback &) {
        static_assert(cudawb_detail::not_emulated<Callback>::value, CUDAWB_CUB_NOT_EMULATED("BlockScan with a prefix callback"));
    }
};
} // namespace cub
#endif
