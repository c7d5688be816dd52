/* cudawb/thrust_device.h: what the CPU backend's Thrust device system (cudawb/thrust_system.h) does.
   - Every Thrust algorithm given a device policy or device iterators runs as a one-thread kernel on the legacy
     default stream (or the policy's), after the program's work queued before it, and the call then waits for
     it (as thrust::device does on a GPU): Thrust's sequential C++ algorithm runs inside it with device memory
     open, so user functors may read device memory too. A kernel that faults, or an earlier sticky error,
     throws thrust::system_error with the CUDA error, as CUDA's Thrust does.
   - Copies between the host and the device are cudaMemcpyAsync calls on the legacy stream, each waited for,
     as in CCCL 3 (non-contiguous ranges go through a temporary array, as there); so are reads and writes of
     single elements (v[i]) from host code.
   - thrust::malloc/free on the device (and device_malloc) are cudaMalloc/cudaFree.
   Host code never touches device memory itself: raw_pointer_cast(v.data()) dereferenced on the host faults. */
#pragma once
#include <cudawb/thrust_memory.h>
#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/detail/seq.h>
#include <thrust/distance.h>
#include <thrust/iterator/iterator_traits.h>
#include <thrust/type_traits/is_contiguous_iterator.h>
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>
#include <utility>

namespace cudawb {
bool thrust_device_code(); /* inside a kernel (src/thrust.cpp): Thrust's device code touches memory directly */
}

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cudawb {
namespace detail {
[[noreturn]] inline void throw_cuda_error(cudaError_t e, const char *what) {
    cudaGetLastError(); /* the exception reports it; CUDA's Thrust leaves no pending error behind either */
    throw thrust::system_error(e, thrust::cuda_category(), what);
}

/* f() as a kernel named "thrust::NAME" of one thread on the stream (the policy's; the legacy default stream
   unless par.on(stream) named one), waited for. Inside a kernel
   already (a functor, or the program's own kernel, calling an algorithm with a device policy) it simply runs. */
template <class F> auto on_device(cudaStream_t stream, const char *name, F &&f) -> decltype(f()) {
    typedef decltype(f()) R;
    if (::cudawb::thrust_device_code()) return f();
    static const char key = 0; /* the "kernel" the trace registers, one per algorithm instantiation */
    std::optional<typename std::conditional<std::is_void<R>::value, int, R>::type> result;
    std::exception_ptr thrown;
    auto body = [&] {
        try {
            if constexpr (std::is_void<R>::value) f(), result.emplace(0);
            else result.emplace(f());
        } catch (...) {
            thrown = std::current_exception();
        }
    };
    ::cudawb::launch_desc d = {name, 0, &key, dim3(1), dim3(1), 0, stream, 0, 0, cudawb_site()};
    static const size_t no_params[] = {0};
    cudaError_t e = ::cudawb::launch_begin(&d, nullptr, 0, no_params);
    if (e == cudaSuccess) {
        ::cudawb::launch_submit(&d, new ::cudawb::closure<decltype(body)>(body));
        e = cudaStreamSynchronize(stream);
    }
    if (e != cudaSuccess) throw_cuda_error(e, name);
    cudaGetLastError(); /* as CUDA's Thrust after each algorithm: no CUDA error stays pending */
    if (thrown) std::rethrow_exception(thrown);
    if constexpr (!std::is_void<R>::value) return std::move(*result);
}

/* Every algorithm with a device policy: Thrust's sequential version, run by on_device. The unqualified call
   with the const thrust::seq finds Thrust's entry points (namespace thrust) by argument-dependent lookup when
   the template is instantiated, whatever the order the program included Thrust's headers in. */
#define CUDAWB_THRUST_ON_DEVICE(name)                                                                         \
    template <class D, class... A>                                                                            \
    auto name(execution_policy<D> &exec, A &&...a)->decltype(name(thrust::seq, std::forward<A>(a)...)) {     \
        return on_device(stream_of(static_cast<D &>(exec)), "thrust::" #name,                                  \
                         [&]() -> decltype(auto) { return name(thrust::seq, std::forward<A>(a)...); });        \
    }
CUDAWB_THRUST_ON_DEVICE(adjacent_difference)
CUDAWB_THRUST_ON_DEVICE(all_of)
CUDAWB_THRUST_ON_DEVICE(any_of)
CUDAWB_THRUST_ON_DEVICE(binary_search)
CUDAWB_THRUST_ON_DEVICE(copy)
CUDAWB_THRUST_ON_DEVICE(copy_if)
CUDAWB_THRUST_ON_DEVICE(copy_n)
CUDAWB_THRUST_ON_DEVICE(count)
CUDAWB_THRUST_ON_DEVICE(count_if)
CUDAWB_THRUST_ON_DEVICE(equal)
CUDAWB_THRUST_ON_DEVICE(equal_range)
CUDAWB_THRUST_ON_DEVICE(exclusive_scan)
CUDAWB_THRUST_ON_DEVICE(exclusive_scan_by_key)
CUDAWB_THRUST_ON_DEVICE(fill)
CUDAWB_THRUST_ON_DEVICE(fill_n)
CUDAWB_THRUST_ON_DEVICE(find)
CUDAWB_THRUST_ON_DEVICE(find_if)
CUDAWB_THRUST_ON_DEVICE(find_if_not)
CUDAWB_THRUST_ON_DEVICE(for_each)
CUDAWB_THRUST_ON_DEVICE(for_each_n)
CUDAWB_THRUST_ON_DEVICE(gather)
CUDAWB_THRUST_ON_DEVICE(gather_if)
CUDAWB_THRUST_ON_DEVICE(generate)
CUDAWB_THRUST_ON_DEVICE(generate_n)
CUDAWB_THRUST_ON_DEVICE(inclusive_scan)
CUDAWB_THRUST_ON_DEVICE(inclusive_scan_by_key)
CUDAWB_THRUST_ON_DEVICE(inner_product)
CUDAWB_THRUST_ON_DEVICE(is_partitioned)
CUDAWB_THRUST_ON_DEVICE(is_sorted)
CUDAWB_THRUST_ON_DEVICE(is_sorted_until)
CUDAWB_THRUST_ON_DEVICE(lower_bound)
CUDAWB_THRUST_ON_DEVICE(max_element)
CUDAWB_THRUST_ON_DEVICE(merge)
CUDAWB_THRUST_ON_DEVICE(merge_by_key)
CUDAWB_THRUST_ON_DEVICE(min_element)
CUDAWB_THRUST_ON_DEVICE(minmax_element)
CUDAWB_THRUST_ON_DEVICE(mismatch)
CUDAWB_THRUST_ON_DEVICE(none_of)
CUDAWB_THRUST_ON_DEVICE(partition)
CUDAWB_THRUST_ON_DEVICE(partition_copy)
CUDAWB_THRUST_ON_DEVICE(partition_point)
CUDAWB_THRUST_ON_DEVICE(reduce)
CUDAWB_THRUST_ON_DEVICE(reduce_by_key)
CUDAWB_THRUST_ON_DEVICE(remove)
CUDAWB_THRUST_ON_DEVICE(remove_copy)
CUDAWB_THRUST_ON_DEVICE(remove_copy_if)
CUDAWB_THRUST_ON_DEVICE(remove_if)
CUDAWB_THRUST_ON_DEVICE(replace)
CUDAWB_THRUST_ON_DEVICE(replace_copy)
CUDAWB_THRUST_ON_DEVICE(replace_copy_if)
CUDAWB_THRUST_ON_DEVICE(replace_if)
CUDAWB_THRUST_ON_DEVICE(reverse)
CUDAWB_THRUST_ON_DEVICE(reverse_copy)
CUDAWB_THRUST_ON_DEVICE(scatter)
CUDAWB_THRUST_ON_DEVICE(scatter_if)
CUDAWB_THRUST_ON_DEVICE(sequence)
CUDAWB_THRUST_ON_DEVICE(set_difference)
CUDAWB_THRUST_ON_DEVICE(set_difference_by_key)
CUDAWB_THRUST_ON_DEVICE(set_intersection)
CUDAWB_THRUST_ON_DEVICE(set_intersection_by_key)
CUDAWB_THRUST_ON_DEVICE(set_symmetric_difference)
CUDAWB_THRUST_ON_DEVICE(set_symmetric_difference_by_key)
CUDAWB_THRUST_ON_DEVICE(set_union)
CUDAWB_THRUST_ON_DEVICE(set_union_by_key)
CUDAWB_THRUST_ON_DEVICE(shuffle)
CUDAWB_THRUST_ON_DEVICE(shuffle_copy)
CUDAWB_THRUST_ON_DEVICE(sort)
CUDAWB_THRUST_ON_DEVICE(sort_by_key)
CUDAWB_THRUST_ON_DEVICE(stable_partition)
CUDAWB_THRUST_ON_DEVICE(stable_partition_copy)
CUDAWB_THRUST_ON_DEVICE(stable_sort)
CUDAWB_THRUST_ON_DEVICE(stable_sort_by_key)
CUDAWB_THRUST_ON_DEVICE(swap_ranges)
CUDAWB_THRUST_ON_DEVICE(tabulate)
CUDAWB_THRUST_ON_DEVICE(transform)
CUDAWB_THRUST_ON_DEVICE(transform_exclusive_scan)
CUDAWB_THRUST_ON_DEVICE(transform_if)
CUDAWB_THRUST_ON_DEVICE(transform_inclusive_scan)
CUDAWB_THRUST_ON_DEVICE(transform_reduce)
CUDAWB_THRUST_ON_DEVICE(uninitialized_copy)
CUDAWB_THRUST_ON_DEVICE(uninitialized_copy_n)
CUDAWB_THRUST_ON_DEVICE(uninitialized_fill)
CUDAWB_THRUST_ON_DEVICE(uninitialized_fill_n)
CUDAWB_THRUST_ON_DEVICE(unique)
CUDAWB_THRUST_ON_DEVICE(unique_by_key)
CUDAWB_THRUST_ON_DEVICE(unique_by_key_copy)
CUDAWB_THRUST_ON_DEVICE(unique_copy)
CUDAWB_THRUST_ON_DEVICE(unique_count)
CUDAWB_THRUST_ON_DEVICE(upper_bound)
#undef CUDAWB_THRUST_ON_DEVICE

/* ---- device memory from host code ---- */
template <class D> void *malloc(execution_policy<D> &, std::size_t n) {
    if (::cudawb::thrust_device_code()) return std::malloc(n); /* a kernel's own heap, as device-side malloc */
    void *p = nullptr;
    cudaError_t e = cudaMalloc(&p, n);
    if (e != cudaSuccess) {
        cudaGetLastError();
        throw thrust::system::detail::bad_alloc(thrust::cuda_category().message(e).c_str());
    }
    return p;
}
template <class D, class Pointer> void free(execution_policy<D> &, Pointer p) {
    if (::cudawb::thrust_device_code()) return std::free(thrust::raw_pointer_cast(p));
    cudaError_t e = cudaFree(thrust::raw_pointer_cast(p));
    if (e != cudaSuccess) throw_cuda_error(e, "device free failed");
}

/* as CCCL 3's Thrust copies: cudaMemcpyAsync (cudaMemcpyDefault) on the legacy stream, then waits for it */
inline void copy_bytes(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind) {
    cudaError_t e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, cudaStreamLegacy);
    cudaStreamSynchronize(cudaStreamLegacy);
    if (e != cudaSuccess)
        throw_cuda_error(e, kind == cudaMemcpyHostToDevice   ? "__copy:: H->D: failed"
                            : kind == cudaMemcpyDeviceToHost ? "__copy:: D->H: failed"
                                                             : "__copy:: D->D: failed");
}

template <class D, class Pointer>
typename thrust::iterator_value<Pointer>::type get_value(execution_policy<D> &, Pointer ptr) {
    typedef typename thrust::iterator_value<Pointer>::type T;
    if (::cudawb::thrust_device_code()) return *thrust::raw_pointer_cast(ptr);
    T v;
    copy_bytes(&v, thrust::raw_pointer_cast(ptr), sizeof(T), cudaMemcpyDeviceToHost);
    return v;
}
template <class D, class Pointer1, class Pointer2> void assign_value(execution_policy<D> &, Pointer1 dst, Pointer2 src) {
    if (::cudawb::thrust_device_code()) {
        *thrust::raw_pointer_cast(dst) = *thrust::raw_pointer_cast(src);
        return;
    }
    copy_bytes(thrust::raw_pointer_cast(dst), thrust::raw_pointer_cast(src),
               sizeof(typename thrust::iterator_value<Pointer1>::type), cudaMemcpyDeviceToDevice);
}
template <class D, class Pointer1, class Pointer2> void iter_swap(execution_policy<D> &, Pointer1 a, Pointer2 b) {
    typedef typename thrust::iterator_value<Pointer1>::type T;
    T *pa = thrust::raw_pointer_cast(a), *pb = thrust::raw_pointer_cast(b);
    if (::cudawb::thrust_device_code()) {
        using std::swap;
        swap(*pa, *pb);
        return;
    }
    T va, vb;
    copy_bytes(&va, pa, sizeof(T), cudaMemcpyDeviceToHost);
    copy_bytes(&vb, pb, sizeof(T), cudaMemcpyDeviceToHost);
    copy_bytes(pa, &vb, sizeof(T), cudaMemcpyHostToDevice);
    copy_bytes(pb, &va, sizeof(T), cudaMemcpyHostToDevice);
}

/* ---- copies between the host (the cpp system) and the device ---- */
template <class S1, class S2> struct cross_system : thrust::execution_policy<cross_system<S1, S2>> {};

template <class S1, class S2>
cross_system<S1, S2> select_system(const execution_policy<S1> &, const thrust::cpp::execution_policy<S2> &) {
    return cross_system<S1, S2>();
}
template <class S1, class S2>
cross_system<S1, S2> select_system(const thrust::cpp::execution_policy<S1> &, const execution_policy<S2> &) {
    return cross_system<S1, S2>();
}

template <class It>
using on_device_iterator = std::is_same<typename thrust::iterator_system<It>::type, thrust::system::cudawb::tag>;
template <class It> using value_of = typename std::remove_cv<typename thrust::iterator_value<It>::type>::type;

/* thrust::copy between two contiguous device ranges of one trivially copyable type: as in CCCL 3, a
   cudaMemcpyAsync on the policy's stream, waited for, rather than a copy kernel */
template <class D, class It, class Out,
          class = typename std::enable_if<thrust::is_contiguous_iterator<It>::value &&
                                          thrust::is_contiguous_iterator<Out>::value &&
                                          std::is_same<value_of<It>, value_of<Out>>::value &&
                                          std::is_trivially_copyable<value_of<It>>::value>::type>
Out copy(execution_policy<D> &exec, It first, It last, Out result) {
    if (::cudawb::thrust_device_code()) return copy(thrust::seq, first, last, result);
    const auto n = last - first;
    if (n <= 0) return result;
    cudaStream_t stream = stream_of(static_cast<D &>(exec));
    cudaError_t e = cudaMemcpyAsync(thrust::raw_pointer_cast(&*result), thrust::raw_pointer_cast(&*first),
                                    (size_t)n * sizeof(value_of<It>), cudaMemcpyDeviceToDevice, stream);
    cudaStreamSynchronize(stream);
    if (e != cudaSuccess) throw_cuda_error(e, "__copy:: D->D: failed");
    return result + n;
}

/* a temporary device array, as CUDA's Thrust allocates one: cudaMalloc'ed, freed when it goes */
template <class T> struct device_buffer {
    T *p;
    explicit device_buffer(size_t n) {
        thrust::system::cudawb::tag device;
        p = static_cast<T *>(malloc(device, n * sizeof(T)));
    }
    ~device_buffer() { cudaFree(p); }
};

/* n elements from a host range to a device range or back. Contiguous ranges of one trivially copyable type are
   one cudaMemcpy; otherwise the values travel through a contiguous array of the source's type on both sides,
   and a kernel (on the device) or the host converts them into the destination. */
template <class In, class Size, class Out> Out cross_copy_n(In first, Size n, Out result) {
    typedef value_of<In> T;
    static_assert(std::is_trivially_copyable<T>::value,
                  "the CPU backend copies between host and device only trivially copyable element types");
    if (n <= 0) return result;
    if (::cudawb::thrust_device_code()) return copy_n(thrust::seq, first, n, result); /* both are reachable here */
    constexpr bool to_device = on_device_iterator<Out>::value;
    const size_t bytes = (size_t)n * sizeof(T);
    if constexpr (thrust::is_contiguous_iterator<In>::value && thrust::is_contiguous_iterator<Out>::value &&
                  std::is_same<T, value_of<Out>>::value) {
        copy_bytes(thrust::raw_pointer_cast(&*result), thrust::raw_pointer_cast(&*first), bytes,
                   to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
        return result + n;
    } else if constexpr (to_device) {
        std::unique_ptr<T[]> host(new T[n]);
        for (Size i = 0; i < n; ++i, ++first) host[i] = *first;
        device_buffer<T> temp(n);
        copy_bytes(temp.p, host.get(), bytes, cudaMemcpyHostToDevice);
        return on_device(cudaStreamLegacy, "thrust::copy", [&] { return copy_n(thrust::seq, temp.p, n, result); });
    } else {
        std::unique_ptr<T[]> host(new T[n]);
        if constexpr (thrust::is_contiguous_iterator<In>::value) {
            copy_bytes(host.get(), thrust::raw_pointer_cast(&*first), bytes, cudaMemcpyDeviceToHost);
        } else {
            device_buffer<T> temp(n);
            on_device(cudaStreamLegacy, "thrust::copy", [&] { return copy_n(thrust::seq, first, n, temp.p); });
            copy_bytes(host.get(), temp.p, bytes, cudaMemcpyDeviceToHost);
        }
        for (Size i = 0; i < n; ++i, ++result) *result = host[i];
        return result;
    }
}
template <class S1, class S2, class In, class Out> Out copy(cross_system<S1, S2> &, In first, In last, Out result) {
    return cross_copy_n(first, thrust::distance(first, last), result);
}
template <class S1, class S2, class In, class Size, class Out>
Out copy_n(cross_system<S1, S2> &, In first, Size n, Out result) {
    return cross_copy_n(first, n, result);
}
/* one element between the host and the device: a reference's assignment across the two systems */
template <class S1, class S2, class Pointer1, class Pointer2>
void assign_value(cross_system<S1, S2> &, Pointer1 dst, Pointer2 src) {
    typedef value_of<Pointer1> T;
    if (::cudawb::thrust_device_code()) { /* an algorithm's temporary, stored back: both are reachable here */
        *thrust::raw_pointer_cast(dst) = *thrust::raw_pointer_cast(src);
    } else if constexpr (on_device_iterator<Pointer1>::value) {
        T v = *thrust::raw_pointer_cast(src); /* converted on the host first */
        copy_bytes(thrust::raw_pointer_cast(dst), &v, sizeof(T), cudaMemcpyHostToDevice);
    } else {
        thrust::system::cudawb::tag device;
        *thrust::raw_pointer_cast(dst) = get_value(device, src);
    }
}
} // namespace detail
} // namespace cudawb
} // namespace system
THRUST_NAMESPACE_END
