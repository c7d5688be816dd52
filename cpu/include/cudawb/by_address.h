/* cudawb/by_address.h: cudaLaunchKernel and cudaLaunchCooperativeKernel, which launch a kernel given only its
   address and a void ** array pointing to each argument. The rewriter registers every kernel it defines
   (cpu/tools/cudapp.cpp: a register_by_args call after its closing brace), with a function that reads the
   arguments back as the kernel's parameter types and launches it as k<<<...>>>(args) would. */
#ifndef CUDAWB_BY_ADDRESS_H
#define CUDAWB_BY_ADDRESS_H
#include <type_traits>
#include <utility>
#include "launch.h"

namespace cudawb {
typedef cudaError_t (*by_args_fn)(const void *func, const char *name, int flags, dim3 grid, dim3 block,
                                  void **args, size_t shmem, cudaStream_t stream, cudawb_site at);
void register_launcher(const void *func, const char *name, int flags, by_args_fn fn);
cudaError_t launch_by_address(const void *func, dim3 grid, dim3 block, void **args, size_t shmem,
                              cudaStream_t stream, int extra_flags, const char *api, cudawb_site at);

template <class... P> struct by_args {
    template <size_t... I>
    static cudaError_t go(void (*k)(P...), const char *name, int flags, dim3 g, dim3 b, void **args, size_t shmem,
                          cudaStream_t s, cudawb_site at, std::index_sequence<I...>) {
        (void)args; /* a kernel without parameters reads none */
        return launch(k, [=](auto... a) { k(a...); }, name, flags, g, b, shmem, s, at)(
            *(typename std::decay<P>::type *)args[I]...);
    }
    static cudaError_t call(const void *f, const char *name, int flags, dim3 g, dim3 b, void **args, size_t shmem,
                            cudaStream_t s, cudawb_site at) {
        return go((void (*)(P...))f, name, flags, g, b, args, shmem, s, at, std::index_sequence_for<P...>());
    }
};
template <class... P> inline int register_by_args(void (*k)(P...), const char *name, int flags) {
    register_launcher((const void *)k, name, flags, &by_args<P...>::call);
    return 0;
}
} // namespace cudawb

CUDAWB_API(cudaLaunchCooperativeKernel);

/* CUDA's C forms (const void *) and C++ forms (any kernel pointer); a kernel that is not a registered
   non-template __global__ function of this program gives 98 (cudaErrorInvalidDeviceFunction) */
inline cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                    size_t sharedMem = 0, cudaStream_t stream = 0, CUDAWB_AT) {
    return cudawb::launch_by_address(func, gridDim, blockDim, args, sharedMem, stream, 0, "cudaLaunchKernel",
                                     cudawb_at);
}
template <class T>
inline cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0,
                                    cudaStream_t stream = 0, CUDAWB_AT) {
    return cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream, cudawb_at);
}
inline cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                               size_t sharedMem = 0, cudaStream_t stream = 0, CUDAWB_AT) {
    CUDAWB_API_MARK(cudaLaunchCooperativeKernel);
    return cudawb::launch_by_address(func, gridDim, blockDim, args, sharedMem, stream,
                                     cudawb::launch_cooperative, "cudaLaunchCooperativeKernel", cudawb_at);
}
template <class T>
inline cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                               size_t sharedMem = 0, cudaStream_t stream = 0, CUDAWB_AT) {
    return cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream, cudawb_at);
}
#endif
