// grid.cpp: kernels launched by address (cudaLaunchKernel, cudaLaunchCooperativeKernel, include/cudawb/
// by_address.h) and cooperative launches, whose blocks must all be resident at once so that grid.sync()
// (include/cooperative_groups.h) can make every thread of the grid meet: each block runs on a thread of its
// own, its threads as fibers; at grid.sync() the block's first thread waits for every other block.
#include "graph.h"
#include "worker.h"
#include <condition_variable>
#include <signal.h>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace rt {
namespace {
struct registered {
    const char *name;
    int flags;
    cudawb::by_args_fn fn;
};
// first used by the program's static initializers (the rewriter's registrations): built on first use
std::mutex &reg_mu() { static std::mutex &m = *new std::mutex; return m; }
std::map<const void *, registered> &launchers() {
    static std::map<const void *, registered> &m = *new std::map<const void *, registered>;
    return m;
}

// The grid barrier of the running cooperative kernel. A block that ended (returned or faulted) no longer
// counts, so the others are not left waiting for it; a fault anywhere ends the waiting blocks too.
struct grid_barrier {
    std::mutex mu;
    std::condition_variable cv;
    uint64_t live, waiting = 0, generation = 0;
    kernel_run *k;
};
__thread grid_barrier *grid;

void release_if_complete(grid_barrier *g) {
    if (g->waiting == g->live) {
        g->waiting = 0;
        g->generation++;
        g->cv.notify_all();
    }
}
} // namespace

void run_cooperative(kernel_run *k, worker *host) {
    grid_barrier g;
    g.live = k->total;
    g.k = k;
    std::vector<worker *> ws;
    std::vector<std::thread> threads;
    for (uint64_t b = 0; b < k->total; b++) {
        worker *w = new_worker(1000 + (int)b);
        // each guard page splits the stacks' mapping in two, and Linux allows a process 65530 mappings: a
        // grid of more threads than a few thousand runs without guard pages (an overflow goes unnoticed)
        w->no_guard = k->total * k->d->block.x * k->d->block.y * k->d->block.z > 8192;
        ws.push_back(w);
        threads.emplace_back([k, w, b, &g] {
            self = w;
            std::vector<char> signal_stack(64 * 1024);  // the fault handler's stack, freed with the thread
            stack_t ss = {signal_stack.data(), 0, signal_stack.size()};
            sigaltstack(&ss, NULL);
            w->k = k;
            blockDim = k->d->block;
            gridDim = k->d->grid;
            grid = &g;
            run_block(w, k, b);
            std::lock_guard<std::mutex> lk(g.mu);
            g.live--;
            release_if_complete(&g);
            g.cv.notify_all();
            ss.ss_flags = SS_DISABLE;
            sigaltstack(&ss, NULL);
        });
    }
    for (std::thread &t : threads) t.join();
    // their output and findings, as if the host's worker had run every block
    for (worker *w : ws) {
        host->outs.insert(host->outs.end(), w->outs.begin(), w->outs.end());
        host->errs.insert(host->errs.end(), w->errs.begin(), w->errs.end());
        host->faults.insert(host->faults.end(), w->faults.begin(), w->faults.end());
        fiber_free(w);
        delete w;
    }
}

// The 720 of a cooperative launch whose grid exceeds what the H200 holds at once: 132 SMs times the blocks
// of this shape that fit on one (the occupancy calculator of cuda_runtime_api.h).
cudaError_t grid_too_large(const cudawb::launch_desc *d) {
    int per_sm = 0, sms = device_attribute(cudaDevAttrMultiProcessorCount);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)d->func,
                                                  (int)(d->block.x * d->block.y * d->block.z), d->shmem);
    uint64_t blocks = (uint64_t)d->grid.x * d->grid.y * d->grid.z;
    return blocks > (uint64_t)per_sm * (uint64_t)sms ? cudaErrorCooperativeLaunchTooLarge : cudaSuccess;
}
} // namespace rt

using namespace rt;

cudaError_t cudawb::cooperative_check(launch_desc *d) {
    if (cudaError_t e = grid_too_large(d)) return fail("cudaLaunchCooperativeKernel", e);
    return cudaSuccess;
}

void cudawb::register_launcher(const void *func, const char *name, int flags, by_args_fn fn) {
    std::lock_guard<std::mutex> g(reg_mu());
    launchers()[func] = registered{name, flags, fn};
}

cudaError_t cudawb::launch_by_address(const void *func, dim3 grid_dim, dim3 block_dim, void **args, size_t shmem,
                                      cudaStream_t stream, int extra_flags, const char *api, cudawb_site at) {
    registered r;
    {
        std::lock_guard<std::mutex> g(reg_mu());
        auto it = launchers().find(func);
        if (it == launchers().end()) {
            // Not a kernel (a host function, say): the H200 answered 400, cudaErrorInvalidResourceHandle, not 98.
            if (cudaError_t e = enter(api)) return e;
            return fail(api, cudaErrorInvalidResourceHandle);
        }
        r = it->second;
    }
    if (!args) {
        if (cudaError_t e = enter(api)) return e;
        return fail(api, cudaErrorInvalidValue);
    }
    if (cudaError_t e = capture_stream_error(stream)) return fail(api, e);  // (capture.cpp)
    // a cooperative kernel's blocks run on threads of their own: fibers (general scheduler) for grid.sync()
    int flags = r.flags | extra_flags | (extra_flags & launch_cooperative ? launch_uses_warp : 0);
    return r.fn(func, r.name, flags, grid_dim, block_dim, args, shmem, stream, at);
}

// grid.sync(): the block meets, its first thread waits for every other block, and the block meets again.
void cudawb_grid_sync() {
    grid_barrier *g = grid;
    if (!g) {
        fprintf(stderr, "cudawb: grid.sync() in a kernel not launched with cudaLaunchCooperativeKernel: on a GPU "
                        "its result is undefined; the CPU backend stops the kernel (719)\n");
        __trap();
    }
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
        std::unique_lock<std::mutex> lk(g->mu);
        uint64_t gen = g->generation;
        g->waiting++;
        release_if_complete(g);
        g->cv.wait(lk, [&] { return g->generation != gen || g->k->fault.load(); });
        if (g->generation == gen) {  // another block faulted: the GPU stops the whole kernel
            g->waiting--;
            lk.unlock();
            siglongjmp(self->block_jb, 1);
        }
    }
    __syncthreads();
}
int cudawb_grid_valid() { return grid != nullptr; }
