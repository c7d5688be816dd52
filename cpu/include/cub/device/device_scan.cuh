/* cub/device/device_scan.cuh on the CPU backend: cub::DeviceScan's sums and scans (in place too), with CUB's
   two-phase protocol and a kernel of one thread queued on the stream (device_reduce.cuh says how). The
   by-key scans are refused at compile time. */
#ifndef CUDAWB_CUB_DEVICE_SCAN_CUH
#define CUDAWB_CUB_DEVICE_SCAN_CUH
#include <cub/cudawb_cub.cuh>

namespace cub {
struct DeviceScan {
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
    static cudaError_t InclusiveSum(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in,
                                    OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0) {
        typedef typename cudawb_detail::out_value<InputIteratorT, OutputIteratorT>::type O;
        return Run("cub::DeviceScan::InclusiveSum", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                   cudawb_detail::plus(), true, O(), stream);
    }
    template <typename IteratorT, typename NumItemsT>
    static cudaError_t InclusiveSum(void *d_temp_storage, size_t &temp_storage_bytes, IteratorT d_data,
                                    NumItemsT num_items, cudaStream_t stream = 0) {
        return InclusiveSum(d_temp_storage, temp_storage_bytes, d_data, d_data, num_items, stream);
    }
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
    static cudaError_t ExclusiveSum(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in,
                                    OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0) {
        typedef typename cudawb_detail::out_value<InputIteratorT, OutputIteratorT>::type O;
        return Run("cub::DeviceScan::ExclusiveSum", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                   cudawb_detail::plus(), false, O(), stream);
    }
    template <typename IteratorT, typename NumItemsT>
    static cudaError_t ExclusiveSum(void *d_temp_storage, size_t &temp_storage_bytes, IteratorT d_data,
                                    NumItemsT num_items, cudaStream_t stream = 0) {
        return ExclusiveSum(d_temp_storage, temp_storage_bytes, d_data, d_data, num_items, stream);
    }
    template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename NumItemsT>
    static cudaError_t InclusiveScan(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in,
                                     OutputIteratorT d_out, ScanOpT scan_op, NumItemsT num_items,
                                     cudaStream_t stream = 0) {
        typedef typename cudawb_detail::out_value<InputIteratorT, OutputIteratorT>::type O;
        return Run("cub::DeviceScan::InclusiveScan", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                   scan_op, true, O(), stream);
    }
    template <typename InputIteratorT, typename OutputIteratorT, typename ScanOpT, typename InitValueT,
              typename NumItemsT>
    static cudaError_t ExclusiveScan(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in,
                                     OutputIteratorT d_out, ScanOpT scan_op, InitValueT init_value,
                                     NumItemsT num_items, cudaStream_t stream = 0) {
        return Run("cub::DeviceScan::ExclusiveScan", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                   scan_op, false, init_value, stream);
    }
    CUDAWB_CUB_MEMBER(DeviceScan, ExclusiveSumByKey)
    CUDAWB_CUB_MEMBER(DeviceScan, InclusiveSumByKey)
    CUDAWB_CUB_MEMBER(DeviceScan, ExclusiveScanByKey)
    CUDAWB_CUB_MEMBER(DeviceScan, InclusiveScanByKey)

private:
    /* d_out[i] = the scan of d_in[0..i] (inclusive) or init then d_in[0..i-1] (exclusive); in place too */
    template <typename In, typename Out, typename N, typename Op, typename T>
    static cudaError_t Run(const char *name, void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                           N num_items, Op op, bool inclusive, T init, cudaStream_t stream) {
        return cudawb_detail::device_algorithm(name, d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                                               stream, [=](long long n) {
            typename cudawb_detail::out_value<In, Out>::type acc = init;
            In it = d_in;
            Out out = d_out;
            for (long long i = 0; i < n; i++, ++it, ++out) {
                auto x = *it;  // read before the write: d_out may be d_in
                if (inclusive) acc = i ? op(acc, x) : x;
                *out = acc;
                if (!inclusive) acc = op(acc, x);
            }
        });
    }
};
} // namespace cub
#endif
