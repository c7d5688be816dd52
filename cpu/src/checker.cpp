// checker.cpp: memory faults inside kernels, and the memcheck mode behind bin/compute-sanitizer.
//
// A kernel's access to memory it may not touch raises SIGSEGV (device pages are only open while the
// runtime runs kernels; NULL and far addresses are unmapped). The handler turns it into what the GPU does:
// without the checker the kernel stops and the next synchronizing call returns the sticky 700; with it
// (CUDAWB_MEMCHECK=1) the access is reported like compute-sanitizer does and the thread is skipped. A fault
// in host code keeps its default action: the process dies with SIGSEGV, as it does on a real GPU machine.
#include "worker.h"
#include <dlfcn.h>
#include <fcntl.h>
#include <algorithm>
#include <map>
#include <mutex>
#include <sys/mman.h>
#include <vector>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

namespace rt {
static const char *P = "========= ";

// One line per error into the file the compute-sanitizer wrapper counts (it survives a crash).
void memcheck_count(const char *what) {
    if (!cfg.memcheck_log) return;
    int fd = open(cfg.memcheck_log, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd < 0) return;
    char line[256];
    int n = snprintf(line, sizeof line, "%s\n", what);
    if (write(fd, line, (size_t)n) < 0) { /* the count is best effort */ }
    close(fd);
}

void memcheck_api_error(const char *fn, cudaError_t e) {
    if (!cfg.memcheck || !cfg.report_api_errors || e == cudaErrorNotReady) return;
    fflush(stdout);
    fprintf(stdout, "%sProgram hit %s (error %d) due to \"%s\" on CUDA API call to %s.\n", P, cudaGetErrorName(e),
            (int)e, cudaGetErrorString(e), fn);
    fprintf(stdout, "%s    Saved host backtrace up to driver entry point at error\n%s\n", P, P);
    fflush(stdout); // the program may die next: its report must be out already
    memcheck_count("api");
}

// On the H200, compute-sanitizer reports a cuBLAS kernel that reads a host scalar in device pointer mode as an
// invalid global read inside the library (lesson 07's host-alpha variant failed the memory-checker step there
// too): the same record, without the library's own kernel name, which is not ours to know.
void memcheck_library_fault(const void *addr) {
    if (!cfg.memcheck) return;
    memcheck_count("access");
    fflush(stdout);
    fprintf(stdout, "%sInvalid __global__ read of size 4 bytes\n", P);
    fprintf(stdout, "%s    at a kernel of the cuBLAS library\n", P);
    fprintf(stdout, "%s    by thread (0,0,0) in block (0,0,0)\n", P);
    fprintf(stdout, "%s    Access at 0x%lx is out of bounds (host memory the GPU cannot reach)\n%s\n", P,
            (unsigned long)(uintptr_t)addr, P);
    fflush(stdout);
}

// A cuBLAS kernel's operand that runs past its allocation (blas_operand.h): its first byte outside, in
// compute-sanitizer's words for an access after an allocation's end.
void memcheck_library_overrun(const void *addr, bool write, unsigned size, const alloc *a) {
    if (!cfg.memcheck) return;
    memcheck_count("access");
    fflush(stdout);
    fprintf(stdout, "%sInvalid __global__ %s of size %u bytes\n", P, write ? "write" : "read", size);
    fprintf(stdout, "%s    at a kernel of the cuBLAS library\n", P);
    fprintf(stdout, "%s    by thread (0,0,0) in block (0,0,0)\n", P);
    fprintf(stdout, "%s    Access at 0x%lx is out of bounds\n", P, (unsigned long)(uintptr_t)addr);
    fprintf(stdout, "%s    and is 1 bytes after the nearest allocation at 0x%lx of size %lu bytes\n%s\n", P,
            (unsigned long)a->base, (unsigned long)a->size, P);
    fflush(stdout);
}

static int fault_is_write(void *ctx) {
#if defined(__x86_64__)
    return (((ucontext_t *)ctx)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#elif defined(__aarch64__)
    // the ESR record in the signal frame tells a write (WnR bit) from a read
    struct _aarch64_ctx *h = (struct _aarch64_ctx *)((ucontext_t *)ctx)->uc_mcontext.__reserved;
    while (h->magic) {
        if (h->magic == 0x45535201) return (int)((((struct esr_context *)h)->esr >> 6) & 1);
        h = (struct _aarch64_ctx *)((char *)h + h->size);
    }
    // no ESR record (e.g. under qemu-user): decode the load/store instruction, whose bit 22 is L (load)
    uint32_t insn = *(const uint32_t *)((ucontext_t *)ctx)->uc_mcontext.pc;
    if ((insn & 0x0a000000) == 0x08000000) return !((insn >> 22) & 1);
    return -1;
#endif
}

static uintptr_t fault_pc(void *ctx) {
#if defined(__x86_64__)
    return (uintptr_t)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)((ucontext_t *)ctx)->uc_mcontext.pc;
#endif
}

static void on_fault(int sig, siginfo_t *si, void *ctx) {
    worker *w = self;
    if (!w || !w->in_kernel) {  // host code: die of the signal, as the program would on a GPU machine
        signal(sig, SIG_DFL);
        return;
    }
    uintptr_t addr = (uintptr_t)si->si_addr;
    if (fiber_stack_overflow(w, addr)) {
        static const char msg[] = "cudawb: a GPU thread overflowed its stack: set CUDAWB_CPU_STACK (bytes) higher\n";
        if (write(2, msg, sizeof msg - 1) < 0) { /* nothing more to do */ }
        signal(sig, SIG_DFL);
        return;
    }
    int expected = 0;
    if (!cfg.memcheck) {
        w->k->fault.compare_exchange_strong(expected, (int)cudaErrorIllegalAddress);
        siglongjmp(w->block_jb, 1);
    }
    w->k->fault.compare_exchange_strong(expected, (int)cudaErrorLaunchFailure);
    if (w->faults.size() < w->faults.capacity())
        w->faults.push_back(fault_record{addr, fault_pc(ctx), fault_is_write(ctx), blockIdx, threadIdx});
    if (w->in_fiber) fiber_abort_thread(w);
    siglongjmp(w->thread_jb, 1);
}

// A misaligned access in a kernel. With NVCC_CPU_ALIGN_CHECK=1 device code is compiled with
// -fsanitize=alignment (bin/nvcc-cpu), whose check calls this handler for a load or store through a pointer
// not aligned to its type: the GPU faults on it (716 cudaErrorMisalignedAddress, measured on the H200:
// tests/cases/sticky_716.cu), where x86 and most ARM cores would carry on. In host code it does nothing: a
// CPU tolerates it there, as the program would on a GPU machine.
// data is UBSan's record of the check (GCC and Clang share its layout): where, the type, its alignment, the
// kind of access.
namespace {
struct ubsan_type {
    uint16_t kind, info;  // kind 0 integer (info: log2 of its bits << 1 | signed), 1 float (info: its bits)
    char name[1];
};
struct ubsan_mismatch {
    const char *file;
    uint32_t line, column;
    const ubsan_type *type;
    unsigned char log_alignment, check_kind;  // check_kind 0 load, 1 store, 2-9 references, member calls...
};
}  // namespace

extern "C" void __ubsan_handle_type_mismatch_v1(void *data, void *pointer) {
    worker *w = self;
    if (!w || !w->in_kernel || pointer == NULL) return;
    const ubsan_mismatch *m = (const ubsan_mismatch *)data;
    unsigned size = 1u << m->log_alignment;
    if (m->type && m->type->kind == 0) size = (1u << (m->type->info >> 1)) / 8;
    if (m->type && m->type->kind == 1) size = m->type->info / 8;
    int expected = 0;
    if (!cfg.memcheck) {
        w->k->fault.compare_exchange_strong(expected, (int)cudaErrorMisalignedAddress);
        siglongjmp(w->block_jb, 1);
    }
    w->k->fault.compare_exchange_strong(expected, (int)cudaErrorLaunchFailure);
    if (w->faults.size() < w->faults.capacity()) {
        fault_record f{(uintptr_t)pointer, (uintptr_t)__builtin_return_address(0) - 1, m->check_kind == 1 ? 1 : 0,
                       blockIdx, threadIdx};
        f.size = size;
        f.misaligned = true;
        w->faults.push_back(f);
    }
    if (w->in_fiber) fiber_abort_thread(w);
    siglongjmp(w->thread_jb, 1);
}

void install_fault_handler() {
    stack_t ss;
    ss.ss_size = 64 * 1024;
    ss.ss_sp = malloc(ss.ss_size);
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    // NODEFER: we leave the handler with siglongjmp and must be able to catch the next fault
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

// "kernel(int *, int) in file.cu:12" for a faulting instruction, via addr2line on our own executable.
std::string memcheck_where(uintptr_t pc, const char *kernel) {
    static std::map<uintptr_t, std::string> &cache = *new std::map<uintptr_t, std::string>;
    auto it = cache.find(pc);
    if (it != cache.end()) return it->second;
    std::string s = kernel;
    Dl_info info;
    if (dladdr((void *)pc, &info) && info.dli_fname) {
        char cmd[1024], line[512];
        snprintf(cmd, sizeof cmd, "addr2line -C -f -i -e '%s' 0x%lx 2>/dev/null", info.dli_fname,
                 (unsigned long)(pc - (uintptr_t)info.dli_fbase));
        FILE *f = popen(cmd, "r");
        // with -i, addr2line prints the innermost inlined function first, then its callers: the first line
        // outside our own headers (warp primitives, cooperative groups) is the kernel's own source line
        std::string loc;
        if (f) {
            while (fgets(line, sizeof line, f) && fgets(line, sizeof line, f)) {
                line[strcspn(line, "\n")] = 0;
                bool ours = strstr(line, "/include/cudawb/") || strstr(line, "/include/cooperative_groups");
                if (loc.empty() && !ours) loc = line;
            }
            pclose(f);
        }
        if (!loc.empty() && loc[0] != '?') s += std::string(" in ") + basename_of(loc.c_str());
    }
    cache[pc] = s;
    return s;
}

struct nearest { const alloc *a; };
static void nearest_cb(const alloc *a, void *ctx) {
    uintptr_t addr = ((uintptr_t *)ctx)[0];
    const alloc **best = (const alloc **)&((uintptr_t *)ctx)[1];
    if (a->kind & (PINNED | REGISTERED)) return;
    auto dist = [&](const alloc *x) {
        return addr >= x->base + x->size ? addr - (x->base + x->size) + 1 : x->base > addr ? x->base - addr : 0;
    };
    if (!*best || dist(a) < dist(*best)) *best = a;
}

static int printed;  // reports printed so far: compute-sanitizer's default print limit is 100
static bool in_shared_guard(uintptr_t addr);
static void memcheck_shared_reports(kernel_run *k);

void memcheck_kernel_reports() {
    kernel_run *k = last_kernel();
    for (worker *w : all_workers()) {
        for (const fault_record &f : w->faults) {
            memcheck_count("access");
            if (++printed > 100) continue;  // compute-sanitizer's default print limit
            fflush(stdout);
            bool shared = in_shared_guard(f.addr);  // past the dynamic shared memory, through any pointer
            fprintf(stdout, "%sInvalid %s %s", P, shared ? "__shared__" : "__global__",
                    f.write == 1 ? "write" : f.write == 0 ? "read" : "access");
            if (f.size) fprintf(stdout, " of size %u bytes", f.size);
            fprintf(stdout, "\n%s    at %s\n", P, memcheck_where(f.pc, k->d->name).c_str());
            fprintf(stdout, "%s    by thread (%u,%u,%u) in block (%u,%u,%u)\n", P, f.thread.x, f.thread.y, f.thread.z,
                    f.block.x, f.block.y, f.block.z);
            fprintf(stdout, "%s    Access %s 0x%lx is %s\n", P, f.misaligned ? "to" : "at", (unsigned long)f.addr,
                    f.misaligned ? "misaligned" : "out of bounds");
            if (shared) {
                fprintf(stdout, "%s\n", P);
                continue;
            }
            uintptr_t ctx[2] = {f.addr, 0};
            live_allocations(nearest_cb, ctx);
            const alloc *a = (const alloc *)ctx[1];
            // name the allocation only when the access is plausibly an overrun of it (not NULL, not far away)
            const uintptr_t near = 1 << 20;
            if (a && (f.addr + near < a->base || f.addr > a->base + a->size + near)) a = NULL;
            if (a && f.addr >= a->base && f.addr < a->base + a->size)  // misaligned, in bounds (the H200's words)
                fprintf(stdout, "%s    and is inside the nearest allocation at 0x%lx of size %lu bytes\n", P,
                        (unsigned long)a->base, (unsigned long)a->size);
            else if (a && f.addr >= a->base + a->size)
                fprintf(stdout, "%s    and is %lu bytes after the nearest allocation at 0x%lx of size %lu bytes\n", P,
                        (unsigned long)(f.addr - (a->base + a->size) + 1), (unsigned long)a->base, (unsigned long)a->size);
            else if (a && f.addr < a->base)
                fprintf(stdout, "%s    and is %lu bytes before the nearest allocation at 0x%lx of size %lu bytes\n", P,
                        (unsigned long)(a->base - f.addr), (unsigned long)a->base, (unsigned long)a->size);
            fprintf(stdout, "%s\n", P);
            fflush(stdout);
        }
        w->faults.clear();
    }
    memcheck_shared_reports(k);
}

// ---- shared memory: the rewriter wraps each access to a __shared__ variable (include/cudawb/shared_check.h) ----

struct shared_fault {
    uintptr_t addr;
    size_t size;
    int kind;
    const char *file;
    int line;
    uint64_t block;  // linear index, for the report's order
    uint3 block3, thread;
};
// Made on first use (a global constructor in the program may launch a kernel before this file's initialisers
// run), never destroyed; std::mutex is constant-initialised.
static std::mutex shared_mu;
static std::vector<shared_fault> &shared_faults() {
    static auto &v = *new std::vector<shared_fault>;
    return v;
}

// An access outside the variable (or outside the launch's dynamic shared memory): reported after the kernel
// as compute-sanitizer reports it; the thread stops there, the others go on, and the kernel ends with 719.
static void memcheck_shared(uintptr_t a, size_t size, uintptr_t base, size_t bytes, int kind, const char *file,
                            int line) {
    if (a >= base && a - base <= bytes && size <= bytes - (a - base)) return;
    worker *w = self;
    {
        std::lock_guard<std::mutex> g(shared_mu);
        shared_faults().push_back(shared_fault{a, size, kind, file, line, w->block, blockIdx, threadIdx});
    }
    int expected = 0;
    w->k->fault.compare_exchange_strong(expected, (int)cudaErrorLaunchFailure);
    if (w->in_fiber) fiber_abort_thread(w);
    siglongjmp(w->thread_jb, 1);
}

static void memcheck_shared_reports(kernel_run *k) {
    std::vector<shared_fault> found;
    {
        std::lock_guard<std::mutex> g(shared_mu);
        found.swap(shared_faults());
    }
    // blocks ran on several workers at once: report in block order, then thread order
    std::stable_sort(found.begin(), found.end(), [](const shared_fault &x, const shared_fault &y) {
        if (x.block != y.block) return x.block < y.block;
        if (x.thread.z != y.thread.z) return x.thread.z < y.thread.z;
        if (x.thread.y != y.thread.y) return x.thread.y < y.thread.y;
        return x.thread.x < y.thread.x;
    });
    for (const shared_fault &f : found) {
        memcheck_count("access");
        if (++printed > 100) continue;
        fflush(stdout);
        // the first access of x += y is its read; an atomic is an atomic
        const char *what = f.kind == cudawb::SH_WRITE ? "write" : f.kind == cudawb::SH_ATOMIC ? "atomic" : "read";
        fprintf(stdout, "%sInvalid __shared__ %s of size %lu bytes\n", P, what, (unsigned long)f.size);
        fprintf(stdout, "%s    at %s in %s:%d\n", P, k->d->name, basename_of(f.file), f.line);
        fprintf(stdout, "%s    by thread (%u,%u,%u) in block (%u,%u,%u)\n", P, f.thread.x, f.thread.y, f.thread.z,
                f.block3.x, f.block3.y, f.block3.z);
        fprintf(stdout, "%s    Address 0x%lx is out of bounds\n%s\n", P, (unsigned long)f.addr, P);
        fflush(stdout);
    }
}

// Under memcheck each worker's dynamic shared memory ends at a closed page, as device allocations do: an
// access past the launch's size through any pointer (an alias the rewriter cannot see) faults there.
static std::vector<uintptr_t> &guards() {
    static auto &v = *new std::vector<uintptr_t>;
    return v;
}
// a worker's buffer, unmapped when its thread ends (a cooperative launch runs each block on a new thread)
static const size_t dynamic_max = 232448;  // the largest opt-in dynamic size (H200: 227 KiB)
struct dynamic_area {
    char *base = nullptr, *end = nullptr;
    ~dynamic_area() {
        if (!base) return;
        std::lock_guard<std::mutex> g(shared_mu);
        guards().erase(std::find(guards().begin(), guards().end(), (uintptr_t)end));
        munmap(base, (size_t)(end - base) + (size_t)sysconf(_SC_PAGESIZE));
    }
};
static thread_local dynamic_area area;

void *memcheck_dynamic_shared() {
    worker *w = self;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (!area.base) {
        size_t len = (dynamic_max + page - 1) / page * page;
        char *m = (char *)mmap(NULL, len + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) { fprintf(stderr, "cudawb: cannot map shared memory\n"); abort(); }
        mprotect(m + len, page, PROT_NONE);
        area.base = m;
        area.end = m + len;
        std::lock_guard<std::mutex> g(shared_mu);
        guards().push_back((uintptr_t)area.end);
    }
    size_t n = w && w->k ? w->k->d->shmem : 0;
    return area.end - ((n + 15) & ~(size_t)15);  // the GPU's dynamic shared memory is 16-byte aligned
}

static bool in_shared_guard(uintptr_t addr) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    std::lock_guard<std::mutex> g(shared_mu);
    for (uintptr_t lo : guards())
        if (addr >= lo && addr < lo + page) return true;
    return false;
}
} // namespace rt

int cudawb::shared_checks;

void cudawb::shared_access(const void *p, size_t size, cudawb::sh_span where, int kind, const char *file, int line) {
    rt::worker *w = rt::self;
    if (!w || !w->in_kernel) return;
    if (where.bytes == cudawb::SH_POINTER) {  // its bounds are unknown here; racecheck looks the variable up
        if (shared_checks == cudawb::SH_RACECHECK) rt::race_access_pointer((uintptr_t)p, size, kind, file, line);
        return;
    }
    size_t bytes = where.bytes == cudawb::SH_DYNAMIC ? w->k->d->shmem : where.bytes;
    if (shared_checks == cudawb::SH_MEMCHECK)
        rt::memcheck_shared((uintptr_t)p, size, (uintptr_t)where.base, bytes, kind, file, line);
    else
        rt::race_access((uintptr_t)p, size, (uintptr_t)where.base, bytes, kind, file, line);
}
namespace rt {

static void leak_cb(const alloc *a, void *ctx) {
    if (a->kind & (PINNED | REGISTERED)) return;
    size_t *t = (size_t *)ctx;
    t[0]++;
    t[1] += a->size;
    fprintf(stdout, "%sLeaked %lu bytes at 0x%lx\n", P, (unsigned long)a->size, (unsigned long)a->base);
    fprintf(stdout, "%s    Saved host backtrace up to driver entry point at allocation time\n", P);
    fprintf(stdout, "%s        Host Frame: %s [%s:%d]\n%s\n", P, a->fn, a->file, a->line, P);
    memcheck_count("leak");
}

void memcheck_leaks() {
    fflush(stdout);
    size_t totals[2] = {0, 0};
    live_allocations(leak_cb, totals);
    if (totals[0])
        fprintf(stdout, "%sLEAK SUMMARY: %lu bytes leaked in %lu allocations\n", P, (unsigned long)totals[1],
                (unsigned long)totals[0]);
    fflush(stdout);
}
} // namespace rt
