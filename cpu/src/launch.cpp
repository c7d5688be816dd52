// launch.cpp: kernel launches: the configuration checks at launch time, and the execution at the next
// synchronizing call, with the blocks spread over a pool of worker threads (one per core by default).
#include "worker.h"
#include <algorithm>
#include <condition_variable>
#include <map>
#include <string>
#include <mutex>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <thread>
#include <vector>

__thread uint3 threadIdx, blockIdx;
__thread unsigned cudawb_lanes = 1;
__thread int cudawb_lockstep = 0;
__thread dim3 blockDim, gridDim;
// extern __shared__ arrays all name this per-worker buffer (see cpu/tools/cudapp.cpp)
extern "C" {
__thread char cudawb_dynsmem[232448] __attribute__((aligned(256)));
}

// under memcheck: a buffer that ends at a closed page (checker.cpp), so an overrun through any pointer faults
void *cudawb_dynamic_shared_address(void) {
    return __builtin_expect(rt::cfg.memcheck, 0) ? rt::memcheck_dynamic_shared() : (void *)cudawb_dynsmem;
}

namespace rt {
__thread worker *self;
static const size_t max_dynamic_smem = 232448;  // 227 KiB with opt-in (H200)
// The state below is made on first use, never at startup: a global constructor in the program (a
// thrust::device_vector at namespace scope) may launch a kernel before this file's initialisers have run.
// std::mutex is constant-initialised (nothing runs at startup) and its destructor does nothing.
static std::map<const void *, int> &smem_optin() {  // kernel -> opt-in bytes
    static auto &m = *new std::map<const void *, int>;
    return m;
}
static std::mutex attr_mu;

} // namespace rt
// The managed allocations a kernel's pointer arguments point into. Only direct pointer arguments count: a
// pointer inside a struct, or a __managed__ variable, is not seen (as for the pageable-host check).
struct cudawb::managed_args {
    std::vector<const void *> ptrs;
};
namespace rt {

// A kernel given a pointer into managed memory touches it on the device: the allocation becomes resident
// when the kernel runs (stream order), as the H200's page faults migrate it then.
struct kernel_op : op {
    cudawb::launch_desc d;
    cudawb::task *t;
    void run() override {
        if (d.managed)
            for (const void *p : d.managed->ptrs) make_resident(p);
        run_kernel(&d, t);
    }
    ~kernel_op() {
        delete t;
        delete d.managed;
    }
};

static int dynamic_limit(const void *func) {
    std::lock_guard<std::mutex> g(attr_mu);
    auto it = smem_optin().find(func);
    return it == smem_optin().end() ? 48 * 1024 : it->second;
}
} // namespace rt

using namespace rt;

// The traced entry of every launch (cudawb/launch.h). CUDA 13.0 reports every bad launch configuration as 1
// (cudaErrorInvalidValue), through the last error only.
cudaError_t cudawbLaunchKernel(const void *func, dim3 g, dim3 b, void **, size_t shmem, cudaStream_t stream,
                               cudawb_site) {
    const char *fn = "cudaLaunchKernel";
    if (cudaError_t e = enter(fn)) return e;
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    if (int e = kernel_image(NULL, NULL)) return fail(fn, (cudaError_t)e);  // a build without code for 9.0 (arch.cpp)
    if (b.x == 0 || b.y == 0 || b.z == 0 || b.x > 1024 || b.y > 1024 || b.z > 64 ||
        (uint64_t)b.x * b.y * b.z > 1024 || g.x == 0 || g.y == 0 || g.z == 0 || g.x > 2147483647u ||
        g.y > 65535 || g.z > 65535)
        return fail(fn, cudaErrorInvalidValue);
    if (shmem > (size_t)dynamic_limit(func)) return fail(fn, cudaErrorInvalidValue);
    return cudaSuccess;
}

// What the trace records of a kernel: its identifier and its parameters' sizes.
namespace {
struct kernel_info {
    std::string name;
    std::vector<size_t> sizes;
};
std::mutex kernels_mu;
std::map<const void *, kernel_info> &kernels() {
    static auto &m = *new std::map<const void *, kernel_info>;
    return m;
}
} // namespace

void cudawb_register_kernel(const void *func, const char *name, int nparams, const size_t *sizes) {
    std::lock_guard<std::mutex> g(kernels_mu);
    auto it = kernels().find(func);
    if (it != kernels().end()) return;
    // The rewriter's name may be qualified (ns::step) or a template's (scale<float>): the trace records the
    // identifier alone, as a GPU's trace reads it from the mangled symbol (grader/shim/kernel_info.c).
    std::string id(name);
    id = id.substr(0, id.find('<'));
    size_t colons = id.rfind("::");
    if (colons != std::string::npos) id = id.substr(colons + 2);
    kernels()[func] = kernel_info{id, std::vector<size_t>(sizes, sizes + nparams)};
}

int tr_kernel_info(const void *func, const char **name, size_t *sizes, int max) {
    std::lock_guard<std::mutex> g(kernels_mu);
    auto it = kernels().find(func);
    if (it == kernels().end()) return 0;
    *name = it->second.name.c_str();
    int n = (int)it->second.sizes.size();
    for (int i = 0; i < n && i < max; i++) sizes[i] = it->second.sizes[i];
    return n < max ? n : max;
}

void cudawb::pointer_arg(cudawb::launch_desc &d, const void *p) {
    const alloc *a = find(p);
    if (a && a->kind == MANAGED) {
        if (!d.managed) d.managed = new managed_args;
        d.managed->ptrs.push_back(p);
    } else if (!a && !d.bad_pointer && !device_accessible(p)) {
        d.bad_pointer = p;
    }
}

void cudawb::launch_submit(cudawb::launch_desc *d, cudawb::task *t) {
    kernel_op *o = new kernel_op;
    o->d = *d;
    o->t = t;
    o->stream = d->stream;
    enqueue(o);
}

cudaError_t cudawb_func_set_attribute(const void *func, enum cudaFuncAttribute attr, int value) {
    if (cudaError_t e = enter("cudaFuncSetAttribute")) return e;
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || (size_t)value > max_dynamic_smem) return fail("cudaFuncSetAttribute", cudaErrorInvalidValue);
        std::lock_guard<std::mutex> g(attr_mu);
        smem_optin()[func] = value;
    } else if (attr < cudaFuncAttributeMaxDynamicSharedMemorySize || attr >= cudaFuncAttributeMax) {
        return fail("cudaFuncSetAttribute", cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func, cudawb_site) {
    if (cudaError_t e = enter("cudaFuncGetAttributes")) return e;
    if (!attr) return fail("cudaFuncGetAttributes", cudaErrorInvalidValue);
    int binary, ptx;
    if (int e = kernel_image(&binary, &ptx)) return fail("cudaFuncGetAttributes", (cudaError_t)e);
    memset(attr, 0, sizeof *attr);
    attr->maxThreadsPerBlock = 1024;
    attr->numRegs = 32;
    attr->binaryVersion = binary;  // an sm_80 build runs through its PTX: binaryVersion 90, ptxVersion 80
    attr->ptxVersion = ptx;
    attr->maxDynamicSharedSizeBytes = dynamic_limit(func);
    return cudaSuccess;
}

// ---- device printf and assert ----

int cudawb_printf(const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    worker *w = self;
    int n;
    if (w && w->in_kernel) {  // buffered: it appears at the synchronizing call, in block order
        char buf[1024];
        n = vsnprintf(buf, sizeof buf, format, ap);
        w->out.append(buf, n < (int)sizeof buf ? (size_t)(n < 0 ? 0 : n) : sizeof buf - 1);
    } else {
        n = vprintf(format, ap);
    }
    va_end(ap);
    return n;
}

// nvcc's compiler prints "int *" where g++ prints "int*": follow the GPU's spelling. A kernel whose body the
// rewriter runs as a lambda (cudapp.cpp) names it "k(int)::<lambda()> mutable": the kernel is the GPU's
// function there, and a kernel returns void.
static std::string gpu_signature(const char *f) {
    std::string s, lambda_of;
    if (const char *l = strstr(f, "::<lambda")) {
        lambda_of = "void " + std::string(f, (size_t)(l - f));
        f = lambda_of.c_str();
    }
    for (const char *p = f; *p; p++) {
        if ((*p == '*' || *p == '&') && p > f && p[-1] != ' ' && p[-1] != '*' && p[-1] != '&' && p[-1] != '(')
            s += ' ';
        s += *p;
    }
    return s;
}

void cudawb_assert_fail(const char *expr, const char *file, unsigned int line, const char *function) {
    worker *w = self;
    if (!w || !w->in_kernel) {
        fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, expr);
        abort();
    }
    char buf[2048];
    snprintf(buf, sizeof buf, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file,
             line, gpu_signature(function).c_str(), blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y,
             threadIdx.z, expr);
    w->err += buf;
    int expected = 0;
    w->k->fault.compare_exchange_strong(expected, (int)cudaErrorAssert);
    siglongjmp(w->block_jb, 1);  // the GPU stops the whole kernel
}

void __trap(void) {
    worker *w = self;
    if (!w || !w->in_kernel) abort();
    int expected = 0;
    w->k->fault.compare_exchange_strong(expected, (int)cudaErrorLaunchFailure);
    siglongjmp(w->block_jb, 1);
}

// ---- execution ----

// Threads of a block in a plain loop, with the options that need a hook per thread.
static void run_threads_slow(worker *w, cudawb::task *t, unsigned n) {
    static __thread int *perm;
    static __thread unsigned perm_n;
    if (perm_n < n) { free(perm); perm = (int *)malloc(n * sizeof(int)); perm_n = n; }
    for (unsigned i = 0; i < n; i++) perm[i] = (int)i;
    if (cfg.shuffle) shuffle(perm, (int)n, (uint64_t)cfg.shuffle * 0x9E3779B97F4A7C15ull ^ w->block);
    dim3 b = blockDim;
    for (unsigned i = 0; i < n; i++) {
        unsigned k = (unsigned)perm[i];
        threadIdx = uint3{k % b.x, (k / b.x) % b.y, k / (b.x * b.y)};
        if (!cfg.memcheck) t->run_thread();
        else if (sigsetjmp(w->thread_jb, 0) == 0) t->run_thread();
    }
}

void rt::run_block(worker *w, kernel_run *k, uint64_t b) {
    dim3 g = k->d->grid, bd = k->d->block;
    blockIdx = uint3{(unsigned)(b % g.x), (unsigned)(b / g.x % g.y), (unsigned)(b / ((uint64_t)g.x * g.y))};
    w->block = b;
    unsigned n = bd.x * bd.y * bd.z;
    if (sigsetjmp(w->block_jb, 0) == 0) {
        w->in_kernel = 1;
        if (k->d->bad_pointer) {
            // an argument is a pageable host pointer: the GPU faults on it (700); so does the checker
            int expected = 0;
            if (k->fault.compare_exchange_strong(expected, cfg.memcheck ? (int)cudaErrorLaunchFailure
                                                                        : (int)cudaErrorIllegalAddress) &&
                cfg.memcheck)
                w->faults.push_back(fault_record{(uintptr_t)k->d->bad_pointer, 0, -1, blockIdx, uint3{0, 0, 0}});
        } else if ((k->d->flags & cudawb::launch_lockstep) && cfg.lockstep && !cfg.memcheck && !cfg.shuffle &&
                   !cfg.racecheck) {
            // the lockstep copy: the whole block in one call, or a fiber per warp (cpu/tools/lockstep.h)
            cudawb_lockstep = 1;
            if (k->d->flags & cudawb::launch_lockstep_block) {
                threadIdx = uint3{0, 0, 0};
                k->t->run_thread();
            } else if (k->d->flags & cudawb::launch_uses_barrier) {
                fiber_run_block(w, k->t, (n + 31) / 32, false, 32);
            } else {
                for (unsigned t = 0; t < n; t += 32) {  // warp after warp
                    dim3 b = blockDim;
                    threadIdx = uint3{t % b.x, t / b.x % b.y, t / (b.x * b.y)};
                    k->t->run_thread();
                }
            }
            cudawb_lockstep = 0;
        } else if (k->d->flags & cudawb::launch_uses_warp) {
            fiber_run_block(w, k->t, n, true, 1);  // even one thread: its warp primitives need a fiber
        } else if (k->d->flags & cudawb::launch_uses_barrier && n > 1) {
            fiber_run_block(w, k->t, n, false, 1);
        } else if (!cfg.memcheck && !cfg.shuffle) {
            k->t->run_block_loop(bd.x, bd.y, bd.z, k->d->flags & cudawb::launch_lanes);
        } else {
            run_threads_slow(w, k->t, n);
        }
    }
    w->in_kernel = 0;
    cudawb_lanes = 1;  // a row the kernel left by a fault or assert
    cudawb_lockstep = 0;
    if (w->in_fiber) fiber_reset();
    w->in_fiber = 0;
    if (!w->out.empty()) { w->outs.push_back(std::make_pair(b, w->out)); w->out.clear(); }
    if (!w->err.empty()) { w->errs.push_back(std::make_pair(b, w->err)); w->err.clear(); }
}

static void work_on(worker *w, kernel_run *k) {
    w->k = k;
    blockDim = k->d->block;
    gridDim = k->d->grid;
    for (;;) {
        uint64_t first = k->next.fetch_add(k->chunk);
        if (first >= k->total) break;
        uint64_t last = std::min(first + k->chunk, k->total);
        for (uint64_t b = first; b < last && !k->fault.load(std::memory_order_relaxed); b++) run_block(w, k, b);
        if (k->fault.load(std::memory_order_relaxed)) break;
    }
}

// ---- the worker pool ----
static std::vector<worker *> &pool() {  // pool()[0]: the host thread that synchronizes
    static auto &v = *new std::vector<worker *>;
    return v;
}
// never destroyed: worker threads still wait on them while the process exits
static std::mutex pool_mu;
static std::condition_variable &pool_cv() {
    static auto &c = *new std::condition_variable;
    return c;
}
static std::condition_variable &done_cv() {
    static auto &c = *new std::condition_variable;
    return c;
}
static kernel_run *current;
static uint64_t generation;
static int busy;

static void alt_stack() {
    stack_t ss;
    ss.ss_size = 64 * 1024;
    ss.ss_sp = malloc(ss.ss_size);
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL);
}

static void worker_loop(worker *w) {
    self = w;
    alt_stack();
    uint64_t seen = 0;
    for (;;) {
        kernel_run *k;
        {
            std::unique_lock<std::mutex> g(pool_mu);
            pool_cv().wait(g, [&] { return generation != seen; });
            seen = generation;
            k = current;
        }
        work_on(w, k);
        std::lock_guard<std::mutex> g(pool_mu);
        if (--busy == 0) done_cv().notify_all();
    }
}

worker *rt::new_worker(int id) {
    worker *w = new worker();
    w->id = id;
    w->faults.reserve(128);
    return w;
}

static void start_pool() {
    if (!pool().empty()) return;
    pool().push_back(new_worker(0));
    for (int i = 1; i < cfg.threads; i++) {
        worker *w = new_worker(i);
        pool().push_back(w);
        std::thread(worker_loop, w).detach();
    }
}

cudaError_t rt::run_kernel(cudawb::launch_desc *d, cudawb::task *t) {
    start_pool();
    dim3 g = d->grid;
    kernel_run k;
    k.d = d;
    k.t = t;
    k.total = (uint64_t)g.x * g.y * g.z;
    k.next = 0;
    k.fault = 0;
    // a cooperative launch runs every block at once on threads of its own (grid.cpp), not on the pool
    uint64_t helpers = d->flags & cudawb::launch_cooperative ? 0 : std::min<uint64_t>(pool().size() - 1, k.total - 1);
    k.chunk = std::max<uint64_t>(1, k.total / ((helpers + 1) * 16));
    worker *me = pool()[0];
    worker *saved = self;
    self = me;
    if (helpers) {
        std::lock_guard<std::mutex> lk(pool_mu);
        current = &k;
        busy = (int)(pool().size() - 1);
        generation++;
        pool_cv().notify_all();
    }
    if (d->flags & cudawb::launch_cooperative) run_cooperative(&k, me);
    else work_on(me, &k);
    if (helpers) {
        std::unique_lock<std::mutex> lk(pool_mu);
        done_cv().wait(lk, [] { return busy == 0; });
    }
    self = saved;
    // device printf and assert output, in block order, as one synchronizing call flushes it
    std::vector<std::pair<uint64_t, std::string>> outs, errs;
    for (worker *w : pool()) {
        outs.insert(outs.end(), w->outs.begin(), w->outs.end());
        errs.insert(errs.end(), w->errs.begin(), w->errs.end());
        w->outs.clear();
        w->errs.clear();
    }
    std::stable_sort(outs.begin(), outs.end(), [](const std::pair<uint64_t, std::string> &a,
                                                  const std::pair<uint64_t, std::string> &b) { return a.first < b.first; });
    // stderr is not buffered and stdout is kept as it is: into a file, the GPU's assert lines come before
    // whatever the program printed and has not flushed (cuda-samples' simpleAssert, H200).
    for (auto &o : outs) fwrite(o.second.data(), 1, o.second.size(), stdout);
    for (auto &e : errs) fwrite(e.second.data(), 1, e.second.size(), stderr);
    if (cfg.memcheck) {
        current = &k;
        memcheck_kernel_reports();
        warp_reports();
    }
    if (cfg.racecheck) race_kernel_reports();
    if (k.fault) set_sticky((cudaError_t)k.fault.load());
    return (cudaError_t)k.fault.load();
}

// for checker.cpp: every worker's findings of the kernel that just ran
std::vector<worker *> &rt::all_workers() { return pool(); }
kernel_run *rt::last_kernel() { return current; }

void rt::workers_shutdown() {}
