/* cudawb/launch.h: what a rewritten launch "k<<<g, b, shmem, stream>>>(args)" turns into (see cpu/tools/cudapp.cpp):
     cudawb::launch(k, [=](auto... a) { k(a...); }, "k", flags, g, b, shmem, stream)(args)
   The arguments are converted to the kernel's parameter types and copied once, at launch, into a closure that
   is queued on the stream; the runtime runs it later, once per GPU thread, at the next synchronizing call. The
   lambda calls the kernel directly, so the per-thread loop below can inline small kernels. */
#ifndef CUDAWB_LAUNCH_H
#define CUDAWB_LAUNCH_H
#include "../cuda_runtime_api.h"

namespace cudawb {
/* what the rewriter found a kernel to reach: __syncthreads (its threads run as fibers), warp primitives or
   cooperative groups (fibers under the general scheduler, src/fiber.cpp) */
/* ... and launch_lanes: neither, so the rewriter made its body a loop over a row of threads (cudawb_lanes) */
/* ... launch_lockstep: its body begins with a lockstep copy (cpu/tools/lockstep.h), whose lane group is a warp,
   or the whole block with launch_lockstep_block */
enum { launch_uses_barrier = 1, launch_uses_warp = 2, launch_cooperative = 4 /* set by the runtime */,
       launch_lanes = 8, launch_lockstep = 16, launch_lockstep_block = 32 };

struct task {
    virtual ~task() {}
    virtual void run_thread() = 0;                                   /* threadIdx already set */
    /* every thread, in order; rows: the kernel runs a row of nx threads per call (launch_lanes) */
    virtual void run_block_loop(unsigned nx, unsigned ny, unsigned nz, bool rows) = 0;
};
} // namespace cudawb
/* how many threads of a row, from threadIdx.x on, one call of a launch_lanes kernel runs: 1 unless the runtime
   runs the block row by row (src/launch.cpp); the kernel reads it once, on entry */
extern __thread unsigned cudawb_lanes;
namespace cudawb {

template <class F> struct closure : task {
    F f;
    explicit closure(const F &fn) : f(fn) {}
    void run_thread() override { f(); }
    void run_block_loop(unsigned nx, unsigned ny, unsigned nz, bool rows) override {
        if (rows) {
            cudawb_lanes = nx;
            for (unsigned z = 0; z < nz; z++)
                for (unsigned y = 0; y < ny; y++) {
                    threadIdx = uint3{0, y, z};
                    f();
                }
            cudawb_lanes = 1;
            return;
        }
        for (unsigned z = 0; z < nz; z++)
            for (unsigned y = 0; y < ny; y++)
                for (unsigned x = 0; x < nx; x++) {
                    threadIdx.x = x;
                    threadIdx.y = y;
                    threadIdx.z = z;
                    f();
                }
    }
};

struct launch_desc {
    const char *name;
    int flags;
    const void *func;
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;
    const void *bad_pointer; /* an argument pointing to pageable host memory: the kernel will fault (700) */
    struct managed_args *managed; /* arguments pointing into managed memory: resident once it runs */
    cudawb_site at;          /* the launch's line, for the trace */
};
void launch_submit(launch_desc *d, task *t);

/* Starts a launch through cudawbLaunchKernel, the traced entry (cudaLaunchKernel's parameters): it checks
   the configuration and records the launch error. argv holds a pointer to each converted argument. */
cudaError_t cooperative_check(launch_desc *d); /* 720 when the grid could not be resident on the H200 */
inline cudaError_t launch_begin(launch_desc *d, void **argv, int nparams, const size_t *sizes) {
    cudawb_register_kernel(d->func, d->name, nparams, sizes);
    cudaError_t e = cudawbLaunchKernel(d->func, d->grid, d->block, argv, d->shmem, d->stream, d->at);
    return e || !(d->flags & launch_cooperative) ? e : cooperative_check(d);
}
int device_accessible(const void *p);
void pointer_arg(launch_desc &d, const void *p); /* notes a pageable host pointer or a managed one */

template <class T> inline void check_arg(launch_desc &d, T *p) {
    if (p) pointer_arg(d, (const void *)p);
}
template <class T> inline void check_arg(launch_desc &, const T &) {}

template <class L, class... P> struct launcher {
    L lam;
    launch_desc d;
    cudaError_t operator()(P... args) {
        void *argv[] = {(void *)&args..., nullptr};
        static const size_t sizes[] = {sizeof(P)..., 0};
        if (cudaError_t e = launch_begin(&d, argv, (int)sizeof...(P), sizes)) return e;
        int checks[] = {0, (check_arg(d, args), 0)...};
        (void)checks;
        L l = lam;
        auto body = [=]() { l(args...); };
        launch_submit(&d, new closure<decltype(body)>(body));
        return cudaSuccess;
    }
};
template <class L> struct generic_launcher {
    L lam;
    launch_desc d;
    template <class... A> void operator()(A... args) {
        static const char key = 0; /* one "function" per instantiation, for the trace's kernel registry */
        void *argv[] = {(void *)&args..., nullptr};
        static const size_t sizes[] = {sizeof(A)..., 0};
        if (!d.func) d.func = &key;
        if (launch_begin(&d, argv, (int)sizeof...(A), sizes) != cudaSuccess) return;
        int checks[] = {0, (check_arg(d, args), 0)...};
        (void)checks;
        L l = lam;
        auto body = [=]() { l(args...); };
        launch_submit(&d, new closure<decltype(body)>(body));
    }
};

template <class L, class... P>
inline launcher<L, P...> launch(void (*k)(P...), L lam, const char *name, int flags, dim3 grid, dim3 block,
                                size_t shmem = 0, cudaStream_t stream = 0, cudawb_site at = cudawb_site()) {
    return launcher<L, P...>{lam, {name, flags, (const void *)k, grid, block, shmem, stream, 0, 0, at}};
}
template <class L>
inline generic_launcher<L> launch_generic(L lam, const char *name, int flags, dim3 grid, dim3 block,
                                          size_t shmem = 0, cudaStream_t stream = 0, cudawb_site at = cudawb_site()) {
    return generic_launcher<L>{lam, {name, flags, 0, grid, block, shmem, stream, 0, 0, at}};
}
} // namespace cudawb
#endif
