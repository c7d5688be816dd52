// copy.cpp: cudaMemcpy, cudaMemcpyAsync, cudaMemcpy2D, cudaMemset and the symbol copies, with the H200's
// direction and range checks. Blocking copies are synchronizing calls (they run the queue first); async
// copies are queued on their stream, except the cases where CUDA itself behaves synchronously.
#include "internal.h"
#include <string.h>

using namespace rt;

enum side { HOST_SIDE = 1, DEVICE_SIDE = 2, MANAGED_SIDE = 4, DEAD_SIDE = 8, PINNED_SIDE = 16 };

static int classify(const void *p) {
    const alloc *a = find(p);
    if (a) return a->kind == DEVICE ? DEVICE_SIDE : a->kind == MANAGED ? MANAGED_SIDE : HOST_SIDE | PINNED_SIDE;
    return in_device_space(p) ? DEAD_SIDE : HOST_SIDE;
}

// The direction rules measured on the H200 (gpu-facts.md "Copies"): the kind must match where the pointers
// really are, except HostToHost and Default, which unified addressing lets go anywhere.
static cudaError_t check_copy(void *dst, const void *src, size_t dext, size_t sext, int kind) {
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
    int d = classify(dst), s = classify(src);
    if ((d | s) & DEAD_SIDE) return cudaErrorInvalidValue;
    const int dev = DEVICE_SIDE | MANAGED_SIDE, host = HOST_SIDE | MANAGED_SIDE;
    if (kind == cudaMemcpyHostToDevice && (!(d & dev) || !(s & host))) return cudaErrorInvalidValue;
    if (kind == cudaMemcpyDeviceToHost && (!(s & dev) || !(d & host))) return cudaErrorInvalidValue;
    if (kind == cudaMemcpyDeviceToDevice && (!(s & dev) || !(d & dev))) return cudaErrorInvalidValue;
    if ((d & dev) && dext && !check_range(dst, dext)) return cudaErrorInvalidValue;
    if ((s & dev) && sext && !check_range(src, sext)) return cudaErrorInvalidValue;
    return cudaSuccess;
}

// A copy or memset into managed memory makes it resident: the H200's free memory dropped by 256 MiB at a
// cudaMemcpy HostToDevice into a fresh 256 MiB managed allocation, as it does at a kernel's touch. (A copy
// out of managed memory was not measured, so it counts nothing.)
struct copy_op : op {
    void *dst;
    const void *src;
    size_t dpitch, spitch, width, height;
    void *snapshot;  // pageable source copied at call time, as CUDA stages it
    void run() override {
        make_resident(dst);
        for (size_t r = 0; r < height; r++)
            memcpy((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
    }
    ~copy_op() { free(snapshot); }
};

struct set_op : op {
    void *dst;
    size_t pitch, width, height;
    int value;
    void run() override {
        make_resident(dst);
        for (size_t r = 0; r < height; r++) memset((char *)dst + r * pitch, value, width);
    }
};

static void copy_now(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height) {
    copy_op c;
    c.dst = dst; c.src = src; c.dpitch = dpitch; c.spitch = spitch; c.width = width; c.height = height;
    c.snapshot = NULL;
    open_device();
    c.run();
    close_device();
}

static size_t extent(size_t pitch, size_t width, size_t height) { return height ? (height - 1) * pitch + width : 0; }

static cudaError_t copy2d(const char *fn, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                          size_t height, int kind, cudaStream_t stream, bool async) {
    if (cudaError_t e = enter(fn)) return e;
    if (width > dpitch || width > spitch) return fail(fn, cudaErrorInvalidPitchValue);
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    cudaError_t e = check_copy(dst, src, extent(dpitch, width, height), extent(spitch, width, height), kind);
    if (e) return fail(fn, e);
    if (width == 0 || height == 0) return cudaSuccess;
    int d = classify(dst), s = classify(src);
    bool pageable_dst = (d & HOST_SIDE) && !(d & PINNED_SIDE), pageable_src = (s & HOST_SIDE) && !(s & PINNED_SIDE);
    // Blocking copies, and async copies into pageable memory (CUDA returns only once they are done).
    if (!async || pageable_dst) {
        if ((e = flush_stream(stream))) return fail(fn, e);
        copy_now(dst, dpitch, src, spitch, width, height);
        return cudaSuccess;
    }
    copy_op *c = new copy_op;
    c->dst = dst; c->dpitch = dpitch; c->spitch = spitch; c->width = width; c->height = height;
    c->snapshot = NULL;
    c->src = src;
    if (pageable_src) {  // staged now: the caller may reuse its buffer as soon as the call returns
        size_t n = extent(spitch, width, height);
        c->snapshot = malloc(n);
        memcpy(c->snapshot, src, n);
        c->src = c->snapshot;
    }
    c->stream = stream;
    enqueue(c);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudawb_site) {
    return copy2d("cudaMemcpy", dst, count, src, count, count, 1, kind, 0, false);
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t s, cudawb_site) {
    return copy2d("cudaMemcpyAsync", dst, count, src, count, count, 1, kind, s, true);
}
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind, cudawb_site) {
    return copy2d("cudaMemcpy2D", dst, dpitch, src, spitch, width, height, kind, 0, false);
}
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t s, cudawb_site) {
    return copy2d("cudaMemcpy2DAsync", dst, dpitch, src, spitch, width, height, kind, s, true);
}

// cudaMemset is asynchronous with respect to the host: queued like a kernel. A width past the pitch is 1 on
// the H200 (not 12 as for a copy), as is a height past the allocation.
static cudaError_t set2d(const char *fn, void *p, size_t pitch, int value, size_t width, size_t height,
                         cudaStream_t stream) {
    if (cudaError_t e = enter(fn)) return e;
    if (width > pitch) return fail(fn, cudaErrorInvalidValue);
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    size_t n = extent(pitch, width, height);
    if (n == 0) return cudaSuccess;
    if (!check_range(p, n)) return fail(fn, cudaErrorInvalidValue);
    set_op *o = new set_op;
    o->dst = p; o->pitch = pitch; o->width = width; o->height = height; o->value = value; o->stream = stream;
    enqueue(o);
    return cudaSuccess;
}
cudaError_t cudaMemset(void *p, int value, size_t count, cudawb_site) { return set2d("cudaMemset", p, count, value, count, 1, 0); }
cudaError_t cudaMemsetAsync(void *p, int value, size_t count, cudaStream_t s, cudawb_site) {
    return set2d("cudaMemsetAsync", p, count, value, count, 1, s);
}
cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height, cudawb_site) {
    return set2d("cudaMemset2D", p, pitch, value, width, height, 0);
}

// __constant__ and __device__ variables are ordinary globals here; copies to and from them are synchronous.
cudaError_t cudawb_memcpy_symbol(void *symbol, size_t symbol_size, void *other, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind, int to_symbol, cudaStream_t stream, int async) {
    const char *fn = to_symbol ? (async ? "cudaMemcpyToSymbolAsync" : "cudaMemcpyToSymbol")
                               : (async ? "cudaMemcpyFromSymbolAsync" : "cudaMemcpyFromSymbol");
    if (cudaError_t e = enter(fn)) return e;
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return fail(fn, cudaErrorInvalidMemcpyDirection);
    if (kind == cudaMemcpyHostToHost || kind == (to_symbol ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice))
        return fail(fn, cudaErrorInvalidMemcpyDirection);
    if (offset > symbol_size || count > symbol_size - offset) return fail(fn, cudaErrorInvalidValue);
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    int o = classify(other);
    if ((o & DEAD_SIDE) || (kind == cudaMemcpyDeviceToDevice && !(o & (DEVICE_SIDE | MANAGED_SIDE))))
        return fail(fn, cudaErrorInvalidValue);
    if ((o & (DEVICE_SIDE | MANAGED_SIDE)) && !check_range(other, count)) return fail(fn, cudaErrorInvalidValue);
    if (cudaError_t e = flush_stream(stream)) return fail(fn, e);
    char *s = (char *)symbol + offset;
    if (to_symbol) copy_now(s, count, other, count, count, 1);
    else copy_now(other, count, s, count, count, 1);
    return cudaSuccess;
}

cudaError_t cudawb_symbol_address(void **devPtr, void *symbol, size_t size) {
    if (cudaError_t e = enter("cudaGetSymbolAddress")) return e;
    if (!devPtr) return fail("cudaGetSymbolAddress", cudaErrorInvalidValue);
    register_symbol(symbol, size);
    *devPtr = symbol;
    return cudaSuccess;
}
