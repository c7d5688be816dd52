// alloc.cpp: device, managed and pinned allocations against a fixed device capacity.
//
// Device and managed memory live in two large address ranges reserved with mmap(PROT_NONE). Device pages are
// made accessible only while the runtime itself runs kernels or copies (open_device/close_device): host code
// that dereferences a device pointer gets SIGSEGV, as on a GPU. Every allocation owns whole pages plus one
// spare page after it. Without the memory checker that spare page is opened with the allocation, so small
// overruns go unnoticed (the H200 ignores ~2.4 KB past the end) while far ones fault (700). With the checker,
// allocations end exactly at a page end and the spare page stays PROT_NONE: the first byte past the end faults.
// Addresses are handed out next-fit, so a freed range is not reused soon and stale pointers keep faulting.
//
// Managed memory costs device memory only once the device has touched it (the H200's free memory did not
// drop at cudaMallocManaged of 1 GiB, and dropped by 1024 MiB once a kernel had touched it): every allocation
// counts against the capacity at once, so out-of-memory stays deterministic, but cudaMemGetInfo counts a
// managed one only from the moment it becomes resident (make_resident) until it is freed: a prefetch back to
// the host did not give the H200's memory back either.
#include "internal.h"
#include <map>
#include <mutex>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace rt {
const char *basename_of(const char *path) {
    if (!path) return "?";
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

struct region {
    uintptr_t lo, hi, cursor;
};
static region dev, man;
// Heap-allocated and never destroyed: the leak report reads them after static destructors have run.
struct tables {
    std::map<uintptr_t, alloc> live;             // live allocations by base address
    std::map<uintptr_t, uintptr_t> spans[2];     // occupied page spans per region: lo -> hi
    std::vector<std::pair<uintptr_t, size_t>> symbols;
    std::vector<std::pair<uintptr_t, uintptr_t>> closing;  // pages freed while work ran, closed after it
    std::vector<std::pair<uintptr_t, uintptr_t>> lingering;  // small cudaFree'd spans kernels may still reach
    std::recursive_mutex mu;
};
static tables &T() {
    static tables *t = new tables;
    return *t;
}
static size_t used;      // bytes of device capacity taken: every device and managed allocation
static size_t resident;  // what cudaMemGetInfo counts: device allocations and resident managed ones
static int opened;
static size_t page;

static void reserve(region *r, size_t want) {
    for (; want >= ((size_t)1 << 30); want /= 2) {
        void *p = mmap(NULL, want, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p != MAP_FAILED) {
            // Transparent huge pages where the kernel gives them on request (Debian's default is "madvise"):
            // a large buffer's first touch and its copies cost a 512th of the page faults. Lesson 02's
            // 256 MiB copies ran at 0.3 GB/s without them on a 2-core VM, 7 GB/s with them. Protection stays
            // per 4 KiB page: the kernel splits a huge page where an allocation's guard page ends it.
            madvise(p, want, MADV_HUGEPAGE);
            r->lo = r->cursor = (uintptr_t)p;
            r->hi = r->lo + want;
            return;
        }
    }
}

static void setup() {
    if (page) return;
    page = (size_t)sysconf(_SC_PAGESIZE);
    // Address space is free until touched: room for the capacity many times over, so that next-fit
    // placement rarely wraps around (x86-64 has 128 TiB of user space; some arm64 kernels 256 GiB).
    size_t want = cfg.capacity * 16 + ((size_t)4 << 30);
    if (want > ((size_t)1 << 42)) want = (size_t)1 << 42;
    reserve(&dev, want);
    reserve(&man, want / 4);
}

size_t accounted(size_t size) { return (size + 511) & ~(size_t)511; }

// Finds `need` bytes of free address space in r (next-fit), or returns 0.
static uintptr_t place(region *r, std::map<uintptr_t, uintptr_t> &sp, size_t need) {
    for (int pass = 0; pass < 2; pass++) {
        uintptr_t c = pass == 0 ? r->cursor : r->lo;
        for (;;) {
            if (c + need > r->hi || c + need < c) break;
            auto it = sp.upper_bound(c);
            if (it != sp.begin()) {
                auto prev = std::prev(it);
                if (prev->second > c) { c = prev->second; continue; }
            }
            if (it != sp.end() && it->first < c + need) { c = it->second; continue; }
            r->cursor = c + need;
            return c;
        }
    }
    return 0;
}

static void unmap_pages(uintptr_t lo, uintptr_t hi);

// The H200 let a kernel read a cudaFree'd allocation of 4 KiB or 256 KiB without a fault, where one of
// 1 MiB or more gave 700 (tests/gpu/measure-use-after-free.cu): the driver keeps small allocations' pages
// mapped. Without the memory checker, a freed device allocation under 1 MiB lingers the same way, its
// contents intact, until its address is handed out again (its 64 most recent ones: an older one is closed).
// compute-sanitizer reported every such read, so under the checker nothing lingers.
static const size_t linger_below = (size_t)1 << 20, linger_most = 64;

static void forget_lingering(uintptr_t lo, uintptr_t hi) {
    auto &l = T().lingering;
    for (size_t i = 0; i < l.size();)
        if (l[i].first < hi && lo < l[i].second) l.erase(l.begin() + (long)i);
        else i++;
}

static void linger(uintptr_t lo, uintptr_t hi) {
    auto &l = T().lingering;
    if (l.size() == linger_most) {
        unmap_pages(l.front().first, l.front().second);
        l.erase(l.begin());
    }
    l.push_back(std::make_pair(lo, hi));
}

// Allocates size > 0 bytes of device or managed memory; returns 0, or 2 when it does not fit.
cudaError_t allocate(void **out, size_t size, int kind, const char *fn, const cudawb_site &at) {
    std::lock_guard<std::recursive_mutex> g(T().mu);
    setup();
    region *r = kind == MANAGED ? &man : &dev;
    std::map<uintptr_t, uintptr_t> &sp = T().spans[kind == MANAGED];
    if (size > cfg.capacity - used || accounted(size) > cfg.capacity - used || !r->lo) return cudaErrorMemoryAllocation;
    size_t body = (size + page - 1) / page * page;
    uintptr_t lo = place(r, sp, body + page);
    if (!lo) return cudaErrorMemoryAllocation;
    // The allocation ends at the page after it, keeping the alignment its element type needs (the largest
    // power of two dividing the size, up to 512), so an array of T is still aligned for T. Under the memory
    // checker that page is closed (an overrun faults); otherwise it is open, as the GPU lets small overruns
    // pass. The same place in both: a program cannot tell from its pointers that it is watched.
    size_t a = size & (~size + 1);
    if (a > 512 || a == 0) a = 512;
    uintptr_t base = (lo + body - size) & ~(uintptr_t)(a - 1);
    alloc al = {base, size, kind, fn, basename_of(at.file), at.line, lo, lo + body + (cfg.memcheck ? 0 : page), false};
    sp[lo] = lo + body + page;
    forget_lingering(lo, lo + body + page);
    T().live[base] = al;
    used += accounted(size);
    if (kind == DEVICE) resident += accounted(size);
    if (kind == MANAGED || opened) mprotect((void *)al.span_lo, al.span_hi - al.span_lo, PROT_READ | PROT_WRITE);
    *out = (void *)base;
    return cudaSuccess;
}

cudaError_t allocate_pinned(void **out, size_t size, const char *fn, const cudawb_site &at) {
    std::lock_guard<std::recursive_mutex> g(T().mu);
    setup();
    size_t body = (size + page - 1) / page * page;
    if (body < size) return cudaErrorMemoryAllocation;
    void *p = mmap(NULL, body, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return cudaErrorMemoryAllocation;
    madvise(p, body, MADV_HUGEPAGE); // as device memory (reserve)
    alloc al = {(uintptr_t)p, size, PINNED, fn, basename_of(at.file), at.line, (uintptr_t)p, (uintptr_t)p + body, false};
    T().live[al.base] = al;
    *out = p;
    return cudaSuccess;
}

static void unmap_pages(uintptr_t lo, uintptr_t hi) {
    mprotect((void *)lo, hi - lo, PROT_NONE);
    madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

// Frees the allocation starting exactly at p if its kind is in `kinds`; false if there is none.
bool release(void *p, int kinds) {
    std::lock_guard<std::recursive_mutex> g(T().mu);
    auto it = T().live.find((uintptr_t)p);
    if (it == T().live.end() || !(it->second.kind & kinds)) return false;
    alloc al = it->second;
    T().live.erase(it);
    if (al.kind == REGISTERED) return true;  // the program's own memory: only forgotten
    if (al.kind == PINNED) {
        munmap((void *)al.span_lo, al.span_hi - al.span_lo);
        return true;
    }
    used -= accounted(al.size);
    if (al.kind == DEVICE || al.resident) resident -= accounted(al.size);
    T().spans[al.kind == MANAGED].erase(al.span_lo);
    // A stream-ordered free runs among the queued work (cudaFreeAsync): later work in this batch may still
    // touch the pages, as the H200's pool, which keeps them mapped until the synchronize, let a kernel
    // queued after the free read 4 KiB to 1 GiB without a fault. They are closed when the batch ends.
    // compute-sanitizer reported each such read, so under the checker they close at once.
    if (opened && !cfg.memcheck) T().closing.push_back(std::make_pair(al.span_lo, al.span_hi));
    else if (!opened && !cfg.memcheck && al.kind == DEVICE && al.size < linger_below) linger(al.span_lo, al.span_hi);
    else unmap_pages(al.span_lo, al.span_hi);
    return true;
}

// cudaHostRegister: the program's host memory [p, p + n) becomes pinned (a kernel may use it; a copy from it is
// a pinned one). 712 when it overlaps pinned or registered memory, as registering twice did on the H200.
int register_host(void *p, size_t n, const cudawb_site &at) {
    std::lock_guard<std::recursive_mutex> g(T().mu);
    uintptr_t lo = (uintptr_t)p, hi = lo + n;
    for (auto &kv : T().live)
        if ((kv.second.kind & (PINNED | REGISTERED)) && kv.second.base < hi && lo < kv.second.base + kv.second.size)
            return cudaErrorHostMemoryAlreadyRegistered;
    alloc al = {lo, n, REGISTERED, "cudaHostRegister", basename_of(at.file), at.line, lo, hi, false};
    T().live[lo] = al;
    return cudaSuccess;
}

bool unregister_host(void *p) { return release(p, REGISTERED); }

// A library's own device memory (cuBLAS's, taken at its first cublasCreate): counted against the capacity and
// by cudaMemGetInfo, but no allocation of the program's, so never listed nor leak-reported, and never given
// back (the H200 kept it until the process ended). false, taking nothing, when it does not fit.
bool reserve_library(size_t bytes) {
    std::lock_guard<std::recursive_mutex> g(T().mu);
    if (accounted(bytes) > cfg.capacity - used) return false;
    used += accounted(bytes);
    resident += accounted(bytes);
    return true;
}

void release_library(size_t bytes) {
    std::lock_guard<std::recursive_mutex> g(T().mu);
    used -= accounted(bytes);
    resident -= accounted(bytes);
}

static alloc *lookup(const void *p) {
    auto it = T().live.upper_bound((uintptr_t)p);
    if (it == T().live.begin()) return NULL;
    --it;
    alloc &a = it->second;
    uintptr_t q = (uintptr_t)p;
    return q >= a.base && q < a.base + a.size ? &a : NULL;
}

const alloc *find(const void *p) {
    std::lock_guard<std::recursive_mutex> g(T().mu);
    return lookup(p);
}

// The whole managed allocation containing p is now on the device (other pointers are ignored). A partial
// prefetch, or a kernel that touches a few pages, counts all of it: the H200 itself took 128 MiB for a kernel
// that wrote one int of a 256 MiB allocation, so no finer rule would be exact either.
void make_resident(const void *p) {
    std::lock_guard<std::recursive_mutex> g(T().mu);
    alloc *a = lookup(p);
    if (!a || a->kind != MANAGED || a->resident) return;
    a->resident = true;
    resident += accounted(a->size);
}

bool in_device_space(const void *p) {
    uintptr_t q = (uintptr_t)p;
    return (q >= dev.lo && q < dev.hi) || (q >= man.lo && q < man.hi);
}

bool check_range(const void *p, size_t n) {
    const alloc *a = find(p);
    return a && !(a->kind & (PINNED | REGISTERED)) && n <= a->base + a->size - (uintptr_t)p;
}

void register_symbol(const void *p, size_t n) {
    std::lock_guard<std::recursive_mutex> g(T().mu);
    T().symbols.push_back(std::make_pair((uintptr_t)p, n));
}

static void protect_all(int prot) {
    for (auto &kv : T().live)
        if (kv.second.kind == DEVICE)
            mprotect((void *)kv.second.span_lo, kv.second.span_hi - kv.second.span_lo, prot);
    for (auto &span : T().lingering) mprotect((void *)span.first, span.second - span.first, prot);
}

void open_device() {
    std::lock_guard<std::recursive_mutex> g(T().mu);
    if (opened++ == 0) protect_all(PROT_READ | PROT_WRITE);
}

void close_device() {
    std::lock_guard<std::recursive_mutex> g(T().mu);
    if (--opened > 0) return;
    protect_all(PROT_NONE);
    for (auto &span : T().closing) unmap_pages(span.first, span.second);
    T().closing.clear();
}

void free_everything() {
    std::lock_guard<std::recursive_mutex> g(T().mu);
    while (!T().live.empty()) release((void *)T().live.begin()->first, DEVICE | MANAGED | PINNED | REGISTERED);
}

void live_allocations(void (*fn)(const alloc *, void *), void *ctx) {
    std::lock_guard<std::recursive_mutex> g(T().mu);
    for (auto &kv : T().live) fn(&kv.second, ctx);
}

size_t resident_bytes() { return resident; }
} // namespace cudawb internals

int cudawb::device_accessible(const void *p) {
    if (rt::in_device_space(p)) return 1;
    const rt::alloc *a = rt::find(p);
    if (a) return 1;
    std::lock_guard<std::recursive_mutex> g(rt::T().mu);
    for (auto &s : rt::T().symbols)
        if ((uintptr_t)p >= s.first && (uintptr_t)p < s.first + s.second) return 1;
    return 0;
}
