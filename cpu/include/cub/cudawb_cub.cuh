/* cub/cudawb_cub.cuh: what the CPU backend's CUB shares. CUB's collectives (BlockReduce, BlockScan,
   WarpReduce, WarpScan) are built here on the backend's own primitives: each thread puts its value in the
   TempStorage the program declared __shared__, meets the others at __syncthreads (or __syncwarp for a
   warp), and the first thread computes the result for all of them, so the answers are CUB's whatever the
   order the CPU ran the threads in. The rewriter (tools/cudapp.cpp) sees those calls in the member functions
   (Sum, Reduce, InclusiveSum...) and runs a kernel calling them as fibers. The device-wide algorithms
   (DeviceReduce, DeviceScan) are one-thread kernels queued on the stream, after CUB's two-phase protocol.
   CCCL 3's CUB (nvcc 13) is the reference: cub::Sum and its friends are gone there, so they are here. */
#ifndef CUDAWB_CUB_CUH
#define CUDAWB_CUB_CUH
#include <cuda_runtime.h>
#include <iterator>
#include <limits>
#include <type_traits>

#define CUB_VERSION 300001 /* CCCL 3.0.1's, nvcc 13.0's */

namespace cub {
/* the reduction algorithms' and scan algorithms' names (they change nothing here) */
enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };

namespace cudawb_detail {
/* false, but only when instantiated: a static_assert that fires at the program's use of the name */
template <class...> struct not_emulated : std::false_type {};

struct plus {
    template <class A, class B> __host__ __device__ auto operator()(const A &a, const B &b) const { return a + b; }
};

/* a collective's storage when the program gives none: the block's own (the default constructors) */
template <class S> __device__ S &private_storage() {
    __shared__ S storage;
    return storage;
}

/* the logical warps WarpReduce and WarpScan emulate */
constexpr bool logical_warp_ok(int lanes) { return lanes >= 1 && lanes <= 32 && (lanes & (lanes - 1)) == 0; }

/* the calling thread's index in its block, x fastest, as CUB numbers threads */
__device__ inline int linear_tid() {
    return (int)(threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y);
}

/* v[0] op v[1] op ... op v[n-1], left to right (n >= 1) */
template <class T, class Op> __host__ __device__ T fold(const T *v, int n, Op op) {
    T acc = v[0];
    for (int i = 1; i < n; i++) acc = op(acc, v[i]);
    return acc;
}

/* out[i] = the scan of v[0..i] (inclusive) or of v[0..i-1] after init (exclusive); returns the total */
template <class T, class Op> __host__ __device__ T scan(const T *v, T *out, int n, Op op, bool inclusive, T init) {
    T acc = inclusive ? v[0] : init;
    for (int i = 0; i < n; i++) {
        T x = v[i];
        if (inclusive) {
            if (i) acc = op(acc, x);
            out[i] = acc;
        } else {
            out[i] = acc;
            acc = op(acc, x);
        }
    }
    return acc;
}

/* The lanes of the calling thread's logical warp of `width` lanes (a power of two), as a mask within its
   hardware warp (a block's last warp may be partial), and *lane its index among them. */
__device__ inline unsigned logical_warp(int width, int *lane) {
    int tid = linear_tid(), hw = tid % 32, base = hw - hw % width;
    int in_warp = (int)(blockDim.x * blockDim.y * blockDim.z) - (tid - hw);
    int n = (in_warp < 32 ? in_warp : 32) - base;
    if (n > width) n = width;
    *lane = hw % width;
    return (n >= 32 ? 0xffffffffu : (1u << n) - 1u) << base;
}

/* A collective's meeting point: the block's threads (warp_mask 0), or the lanes of warp_mask. */
__device__ inline void meet(unsigned warp_mask) {
    if (warp_mask) __syncwarp(warp_mask);
    else __syncthreads();
}

/* The reduction of the first `valid` of n participants' inputs, for participant 0 (the others get their
   input back): each puts its input in slots[me], they meet, participant 0 folds. */
template <class T, class Op>
__device__ T gather_reduce(T *slots, int me, int n, T input, Op op, int valid, unsigned warp_mask) {
    slots[me] = input;
    meet(warp_mask);
    if (me != 0 || valid <= 0) return input;
    return fold(slots, valid < n ? valid : n, op);
}

/* A scan over n participants: each puts its input in in_slots[me], they meet, participant 0 scans into
   out_slots and folds the aggregate (the inputs only, as CUB's), they meet again and each takes its own. */
enum scan_kind { INCLUSIVE, EXCLUSIVE_INIT, EXCLUSIVE /* no initial value: participant 0's is undefined */ };
template <class T, class Op>
__device__ void gather_scan(T *in_slots, T *out_slots, T *total, int me, int n, T input, T &output, Op op,
                            scan_kind kind, T init, T *aggregate, unsigned warp_mask) {
    in_slots[me] = input;
    meet(warp_mask);
    if (me == 0) {
        scan(in_slots, out_slots, n, op, kind != EXCLUSIVE_INIT, init);
        *total = fold(in_slots, n, op);
    }
    meet(warp_mask);
    output = kind != EXCLUSIVE ? out_slots[me] : me ? out_slots[me - 1] : input;
    if (aggregate) *aggregate = *total;
}

/* the value type a device algorithm writes: the output iterator's, or the input's for an output iterator
   without one (CUB's rule) */
template <class In, class Out> struct out_value {
    typedef typename std::iterator_traits<Out>::value_type o;
    typedef typename std::remove_cv<typename std::iterator_traits<In>::value_type>::type i;
    typedef typename std::conditional<std::is_void<o>::value, i, o>::type type;
};

/* CUB's two-phase protocol: the first call (no storage) answers the bytes needed; a call with less storage
   than that is 1, as CUB's. The backend needs none, but asks for some, as CUB always does. */
inline bool size_query(void *d_temp_storage, size_t &temp_storage_bytes, cudaError_t *e) {
    const size_t needed = 16;
    *e = cudaSuccess;
    if (!d_temp_storage) {
        temp_storage_bytes = needed;
        return true;
    }
    if (temp_storage_bytes < needed) *e = cudaErrorInvalidValue;
    return *e != cudaSuccess;
}

/* CUB's protocol, then f(n) as a kernel of one thread on the stream (device_run): n is num_items */
template <class In, class Out, class N, class F>
cudaError_t device_algorithm(const char *name, void *d_temp_storage, size_t &temp_storage_bytes, const In &in,
                             const Out &out, N num_items, cudaStream_t stream, F f);

template <class It> inline void note_pointer(::cudawb::launch_desc &d, const It &it) {
    if constexpr (std::is_pointer<It>::value) ::cudawb::check_arg(d, it);
}

/* f() as a kernel of one thread named `name` queued on the stream (not waited for), as CUB's kernels are.
   The iterators it reads and writes are checked as a kernel's pointer arguments (pageable host memory: 700). */
template <class In, class Out, class F>
cudaError_t device_run(const char *name, cudaStream_t stream, const In &in, const Out &out, F f) {
    static const char key = 0; /* the "kernel" the trace registers, one per instantiation */
    ::cudawb::launch_desc d = {name, 0, &key, dim3(1), dim3(1), 0, stream, 0, 0, cudawb_site()};
    static const size_t no_params[] = {0};
    if (cudaError_t e = ::cudawb::launch_begin(&d, nullptr, 0, no_params)) return e;
    note_pointer(d, in);
    note_pointer(d, out);
    ::cudawb::launch_submit(&d, new ::cudawb::closure<F>(f));
    return cudaSuccess;
}
template <class In, class Out, class N, class F>
cudaError_t device_algorithm(const char *name, void *d_temp_storage, size_t &temp_storage_bytes, const In &in,
                             const Out &out, N num_items, cudaStream_t stream, F f) {
    cudaError_t e;
    if (size_query(d_temp_storage, temp_storage_bytes, &e)) return e;
    long long n = (long long)num_items;
    return device_run(name, stream, in, out, [=]() { f(n); });
}
} // namespace cudawb_detail
} // namespace cub

/* what is not emulated fails at compile time, at the program's line, with this message */
#define CUDAWB_CUB_NOT_EMULATED(what)                                                                         \
    "cub::" what " is not emulated by the CPU backend (it has BlockReduce, BlockScan, WarpReduce, WarpScan, "  \
    "DeviceReduce::Sum/Max/Min/Reduce, DeviceScan::InclusiveSum/ExclusiveSum/InclusiveScan/ExclusiveScan)"
/* a device-wide algorithm's member that is not emulated: cub::CLASS::NAME(d_temp_storage, ...) */
#define CUDAWB_CUB_MEMBER(cls, name)                                                                          \
    template <typename... A> static cudaError_t name(A &&...) {                                             \
        static_assert(cub::cudawb_detail::not_emulated<A...>::value, CUDAWB_CUB_NOT_EMULATED(#cls "::" #name)); \
        return cudaErrorNotSupported;                                                                         \
    }
#endif
