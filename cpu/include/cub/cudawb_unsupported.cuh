/* cub/cudawb_unsupported.cuh: CUB's other collectives and algorithms, declared so that a program using one
   fails at its own line with the backend's message naming it (the static_assert fires when the name is
   used), never deep in CUB's templates. */
#ifndef CUDAWB_CUB_UNSUPPORTED_CUH
#define CUDAWB_CUB_UNSUPPORTED_CUH
#include <cub/cudawb_cub.cuh>

/* a block or warp collective: cub::NAME<T, sizes and algorithm...> */
#define CUDAWB_CUB_COLLECTIVE(name)                                                                           \
    template <typename T, auto... Config> class name {                                                      \
        static_assert(cudawb_detail::not_emulated<T>::value, CUDAWB_CUB_NOT_EMULATED(#name));                       \
                                                                                                              \
    public:                                                                                                   \
        struct TempStorage {};                                                                                \
        template <typename... A> __device__ name(A &&...) {}                                                  \
    };
namespace cub {
/* the algorithm names their configurations use, so that the message is the first error */
enum BlockLoadAlgorithm { BLOCK_LOAD_DIRECT, BLOCK_LOAD_STRIPED, BLOCK_LOAD_VECTORIZE, BLOCK_LOAD_TRANSPOSE,
                          BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED };
enum BlockStoreAlgorithm { BLOCK_STORE_DIRECT, BLOCK_STORE_STRIPED, BLOCK_STORE_VECTORIZE, BLOCK_STORE_TRANSPOSE,
                           BLOCK_STORE_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED };
enum BlockHistogramAlgorithm { BLOCK_HISTO_SORT, BLOCK_HISTO_ATOMIC };
enum WarpLoadAlgorithm { WARP_LOAD_DIRECT, WARP_LOAD_STRIPED, WARP_LOAD_VECTORIZE, WARP_LOAD_TRANSPOSE };
enum WarpStoreAlgorithm { WARP_STORE_DIRECT, WARP_STORE_STRIPED, WARP_STORE_VECTORIZE, WARP_STORE_TRANSPOSE };

CUDAWB_CUB_COLLECTIVE(BlockLoad)
CUDAWB_CUB_COLLECTIVE(BlockStore)
CUDAWB_CUB_COLLECTIVE(BlockExchange)
CUDAWB_CUB_COLLECTIVE(BlockHistogram)
CUDAWB_CUB_COLLECTIVE(BlockDiscontinuity)
CUDAWB_CUB_COLLECTIVE(BlockShuffle)
CUDAWB_CUB_COLLECTIVE(BlockAdjacentDifference)
CUDAWB_CUB_COLLECTIVE(BlockRadixSort)
CUDAWB_CUB_COLLECTIVE(BlockMergeSort)
CUDAWB_CUB_COLLECTIVE(BlockRadixRank)
CUDAWB_CUB_COLLECTIVE(BlockRunLengthDecode)
CUDAWB_CUB_COLLECTIVE(WarpLoad)
CUDAWB_CUB_COLLECTIVE(WarpStore)
CUDAWB_CUB_COLLECTIVE(WarpExchange)
CUDAWB_CUB_COLLECTIVE(WarpMergeSort)

struct DeviceRadixSort {
    CUDAWB_CUB_MEMBER(DeviceRadixSort, SortKeys)
    CUDAWB_CUB_MEMBER(DeviceRadixSort, SortPairs)
    CUDAWB_CUB_MEMBER(DeviceRadixSort, SortKeysDescending)
    CUDAWB_CUB_MEMBER(DeviceRadixSort, SortPairsDescending)
};
struct DeviceSegmentedRadixSort {
    CUDAWB_CUB_MEMBER(DeviceSegmentedRadixSort, SortKeys)
    CUDAWB_CUB_MEMBER(DeviceSegmentedRadixSort, SortPairs)
};
struct DeviceMergeSort {
    CUDAWB_CUB_MEMBER(DeviceMergeSort, SortKeys)
    CUDAWB_CUB_MEMBER(DeviceMergeSort, SortPairs)
    CUDAWB_CUB_MEMBER(DeviceMergeSort, StableSortKeys)
    CUDAWB_CUB_MEMBER(DeviceMergeSort, StableSortPairs)
};
struct DeviceSegmentedSort {
    CUDAWB_CUB_MEMBER(DeviceSegmentedSort, SortKeys)
    CUDAWB_CUB_MEMBER(DeviceSegmentedSort, SortPairs)
};
struct DeviceSelect {
    CUDAWB_CUB_MEMBER(DeviceSelect, If)
    CUDAWB_CUB_MEMBER(DeviceSelect, Flagged)
    CUDAWB_CUB_MEMBER(DeviceSelect, Unique)
    CUDAWB_CUB_MEMBER(DeviceSelect, UniqueByKey)
};
struct DevicePartition {
    CUDAWB_CUB_MEMBER(DevicePartition, If)
    CUDAWB_CUB_MEMBER(DevicePartition, Flagged)
};
struct DeviceHistogram {
    CUDAWB_CUB_MEMBER(DeviceHistogram, HistogramEven)
    CUDAWB_CUB_MEMBER(DeviceHistogram, HistogramRange)
    CUDAWB_CUB_MEMBER(DeviceHistogram, MultiHistogramEven)
    CUDAWB_CUB_MEMBER(DeviceHistogram, MultiHistogramRange)
};
struct DeviceRunLengthEncode {
    CUDAWB_CUB_MEMBER(DeviceRunLengthEncode, Encode)
    CUDAWB_CUB_MEMBER(DeviceRunLengthEncode, NonTrivialRuns)
};
struct DeviceSegmentedReduce {
    CUDAWB_CUB_MEMBER(DeviceSegmentedReduce, Reduce)
    CUDAWB_CUB_MEMBER(DeviceSegmentedReduce, Sum)
    CUDAWB_CUB_MEMBER(DeviceSegmentedReduce, Min)
    CUDAWB_CUB_MEMBER(DeviceSegmentedReduce, Max)
    CUDAWB_CUB_MEMBER(DeviceSegmentedReduce, ArgMin)
    CUDAWB_CUB_MEMBER(DeviceSegmentedReduce, ArgMax)
};
struct DeviceAdjacentDifference {
    CUDAWB_CUB_MEMBER(DeviceAdjacentDifference, SubtractLeft)
    CUDAWB_CUB_MEMBER(DeviceAdjacentDifference, SubtractLeftCopy)
    CUDAWB_CUB_MEMBER(DeviceAdjacentDifference, SubtractRight)
    CUDAWB_CUB_MEMBER(DeviceAdjacentDifference, SubtractRightCopy)
};
struct DeviceFor {
    CUDAWB_CUB_MEMBER(DeviceFor, ForEach)
    CUDAWB_CUB_MEMBER(DeviceFor, ForEachN)
    CUDAWB_CUB_MEMBER(DeviceFor, Bulk)
};
struct DeviceTransform {
    CUDAWB_CUB_MEMBER(DeviceTransform, Transform)
};
struct DeviceSpmv {
    CUDAWB_CUB_MEMBER(DeviceSpmv, CsrMV)
};
struct CachingDeviceAllocator {
    template <typename... A> CachingDeviceAllocator(A &&...) {
        static_assert(cudawb_detail::not_emulated<A...>::value, CUDAWB_CUB_NOT_EMULATED("CachingDeviceAllocator"));
    }
};
} // namespace cub
#undef CUDAWB_CUB_COLLECTIVE
#endif
