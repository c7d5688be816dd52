/* cub/device/device_reduce.cuh on the CPU backend: cub::DeviceReduce::Sum, Max, Min and Reduce, with CUB's
   two-phase protocol (a first call without storage sets temp_storage_bytes; the second does the work) and a
   kernel of one thread queued on the stream: the result is there once the stream reaches it, the call
   returns the launch's error. The other members are refused at compile time. */
#ifndef CUDAWB_CUB_DEVICE_REDUCE_CUH
#define CUDAWB_CUB_DEVICE_REDUCE_CUH
#include <cub/cudawb_cub.cuh>

namespace cub {
struct DeviceReduce {
    /* init op d_in[0] op ... op d_in[num_items - 1] into *d_out (init for no items) */
    template <typename InputIteratorT, typename OutputIteratorT, typename ReductionOpT, typename T, typename NumItemsT>
    static cudaError_t Reduce(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, NumItemsT num_items, ReductionOpT reduction_op, T init,
                              cudaStream_t stream = 0) {
        return Run("cub::DeviceReduce::Reduce", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                   reduction_op, init, stream);
    }
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
    static cudaError_t Sum(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in,
                           OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0) {
        typedef typename cudawb_detail::out_value<InputIteratorT, OutputIteratorT>::type O;
        return Run("cub::DeviceReduce::Sum", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                   cudawb_detail::plus(), O(), stream);
    }
    /* no items: the type's largest value (Min) or lowest (Max), as CUB writes */
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
    static cudaError_t Min(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in,
                           OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0) {
        typedef typename std::remove_cv<typename std::iterator_traits<InputIteratorT>::value_type>::type I;
        return Run("cub::DeviceReduce::Min", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                   [](const I &a, const I &b) { return b < a ? b : a; }, std::numeric_limits<I>::max(), stream);
    }
    template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
    static cudaError_t Max(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in,
                           OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0) {
        typedef typename std::remove_cv<typename std::iterator_traits<InputIteratorT>::value_type>::type I;
        return Run("cub::DeviceReduce::Max", d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                   [](const I &a, const I &b) { return a < b ? b : a; }, std::numeric_limits<I>::lowest(), stream);
    }
    CUDAWB_CUB_MEMBER(DeviceReduce, ArgMin)
    CUDAWB_CUB_MEMBER(DeviceReduce, ArgMax)
    CUDAWB_CUB_MEMBER(DeviceReduce, ReduceByKey)
    CUDAWB_CUB_MEMBER(DeviceReduce, TransformReduce)

private:
    template <typename In, typename Out, typename N, typename Op, typename T>
    static cudaError_t Run(const char *name, void *d_temp_storage, size_t &temp_storage_bytes, In d_in, Out d_out,
                           N num_items, Op op, T init, cudaStream_t stream) {
        return cudawb_detail::device_algorithm(name, d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                                               stream, [=](long long n) {
            typename cudawb_detail::out_value<In, Out>::type acc = init;
            In it = d_in;
            for (long long i = 0; i < n; i++, ++it) acc = op(acc, *it);
            *d_out = acc;
        });
    }
};
} // namespace cub
#endif
