// malloc.cpp: the public allocation calls (cudaMalloc, cudaMallocManaged, cudaMallocPitch, cudaMalloc3D,
// cudaMallocHost, cudaHostAlloc, cudaFree, cudaFreeHost, cudaMemGetInfo...) with the H200's return codes. The
// trace, fault injection and leak report are the grader's shim (grader/shim/), linked around this runtime by
// nvcc-cpu.
#include "graph.h"

using namespace rt;

// The common path of every allocation call.
static cudaError_t alloc_call(const char *fn, void **out, size_t size, int kind, const cudawb_site &at) {
    cudaError_t e = enter(fn);
    if (!e) {
        if (!out) e = cudaErrorInvalidValue;
        else if (size == 0) *out = NULL;
        else {
            e = kind == PINNED ? allocate_pinned(out, size, fn, at) : allocate(out, size, kind, fn, at);
            if (e) *out = NULL;
        }
        if (e) fail(fn, e);
    }
    return e;
}

cudaError_t cudaMalloc(void **devPtr, size_t size, cudawb_site at) {
    return alloc_call("cudaMalloc", devPtr, size, DEVICE, at);
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags, cudawb_site at) {
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) {
        cudaError_t e = enter("cudaMallocManaged");
        if (!e) e = fail("cudaMallocManaged", cudaErrorInvalidValue);
        return e;
    }
    return alloc_call("cudaMallocManaged", devPtr, size, MANAGED, at);
}

// Rows are padded to a multiple of 512 bytes, as measured on the H200 (1200 -> 1536, 4000 and 4004 -> 4096,
// 16004 -> 16384; the pitch is written even when the allocation then fails). An empty allocation (width or
// height 0) gives pitch 0 and a NULL pointer with 0.
static size_t row_pitch(size_t width, size_t height) { return width && height ? (width + 511) / 512 * 512 : 0; }

static size_t times(size_t a, size_t b) { return b && a > (size_t)-1 / b ? (size_t)-1 : a * b; }

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height, cudawb_site at) {
    size_t p = row_pitch(width, height);
    if (pitch && sticky_error() == cudaSuccess) *pitch = p;
    if (!pitch) {
        cudaError_t e = enter("cudaMallocPitch");
        if (!e) e = fail("cudaMallocPitch", cudaErrorInvalidValue);
        return e;
    }
    return alloc_call("cudaMallocPitch", devPtr, times(p, height), DEVICE, at);
}

// cudaMallocPitch's rows, height x depth of them: the H200 gave the same pitch for the same width, xsize and
// ysize the width and height asked for, and 2 for 2^40 x 1024 x 1024 bytes (counted against the capacity;
// the last error, not sticky). An empty extent, a NULL pitchedDevPtr and what a failed call writes were not
// measured: they follow cudaMallocPitch (pitch 0 and NULL; 1; the pitch written, the pointer NULL).
cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent, cudawb_site at) {
    size_t p = row_pitch(extent.width, times(extent.height, extent.depth));
    if (!pitchedDevPtr) {
        cudaError_t e = enter("cudaMalloc3D");
        if (!e) e = fail("cudaMalloc3D", cudaErrorInvalidValue);
        return e;
    }
    if (sticky_error() == cudaSuccess) {
        pitchedDevPtr->pitch = p;
        pitchedDevPtr->xsize = extent.width;
        pitchedDevPtr->ysize = extent.height;
    }
    return alloc_call("cudaMalloc3D", &pitchedDevPtr->ptr, times(times(p, extent.height), extent.depth), DEVICE, at);
}

cudaError_t cudaMallocHost(void **ptr, size_t size, cudawb_site at) {
    return alloc_call("cudaMallocHost", ptr, size, PINNED, at);
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags, cudawb_site at) {
    if (flags & ~0x0fu) {
        cudaError_t e = enter("cudaHostAlloc");
        if (!e) e = fail("cudaHostAlloc", cudaErrorInvalidValue);
        return e;
    }
    return alloc_call("cudaHostAlloc", pHost, size, PINNED, at);
}

// cudaFree waits for the device (queued kernels may still use the memory): it is a synchronizing call.
cudaError_t cudaFree(void *devPtr, cudawb_site) {
    cudaError_t e = enter("cudaFree");
    if (!e && devPtr) {
        e = flush();
        int graph = e ? -1 : graph_free(devPtr);  // an allocation a graph made: its address kept for the graph
        if (!e && (graph > 0 || (graph < 0 && !release(devPtr, DEVICE | MANAGED)))) e = cudaErrorInvalidValue;
        if (e) fail("cudaFree", e);
    }
    return e;
}

cudaError_t cudaFreeHost(void *ptr, cudawb_site) {
    cudaError_t e = enter("cudaFreeHost");
    if (!e && ptr) {
        e = flush();
        if (!e && !release(ptr, PINNED)) e = cudaErrorInvalidValue;
        if (e) fail("cudaFreeHost", e);
    }
    return e;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes, cudawb_site) {
    if (cudaError_t e = enter("cudaMemGetInfo")) return e;
    if (!free_bytes || !total_bytes) return fail("cudaMemGetInfo", cudaErrorInvalidValue);
    *total_bytes = cfg.capacity;
    *free_bytes = cfg.capacity - resident_bytes();
    return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr, const void *ptr, cudawb_site) {
    if (cudaError_t e = enter("cudaPointerGetAttributes")) return e;
    if (!attr) return fail("cudaPointerGetAttributes", cudaErrorInvalidValue);
    const alloc *a = find(ptr);
    // memory CUDA does not know has no device (-2) and is its own host pointer, as on the H200
    attr->device = a ? 0 : cudaInvalidDeviceId;
    attr->type = cudaMemoryTypeUnregistered;
    attr->devicePointer = NULL;
    attr->hostPointer = a ? NULL : (void *)ptr;
    if (a && a->kind == DEVICE) { attr->type = cudaMemoryTypeDevice; attr->devicePointer = (void *)ptr; }
    else if (a && a->kind == MANAGED) {
        attr->type = cudaMemoryTypeManaged;
        attr->devicePointer = attr->hostPointer = (void *)ptr;
    } else if (a && (a->kind & (PINNED | REGISTERED))) {
        attr->type = cudaMemoryTypeHost;
        attr->devicePointer = attr->hostPointer = (void *)ptr;
    }
    return cudaSuccess;
}

// Pinned and registered memory is mapped (unified addressing): the device pointer is the host pointer, as the
// H200 answered for cudaHostAllocMapped memory.
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags, cudawb_site) {
    if (cudaError_t e = enter("cudaHostGetDevicePointer")) return e;
    const alloc *a = find(pHost);
    if (!pDevice || flags || !a || !(a->kind & (PINNED | REGISTERED)))
        return fail("cudaHostGetDevicePointer", cudaErrorInvalidValue);
    *pDevice = pHost;
    return cudaSuccess;
}

// [p, p + count) lies inside one managed allocation: what prefetch and advice accept (a cudaMalloc or
// malloc pointer, NULL, a count of 0 or one byte past the end all gave 1 on the H200; an interior pointer 0).
static bool managed_range(const void *p, size_t count) {
    const alloc *a = find(p);
    return a && a->kind == MANAGED && count > 0 && count <= a->base + a->size - (uintptr_t)p;
}

static bool known_location(struct cudaMemLocation l) {
    return l.type >= cudaMemLocationTypeDevice && l.type <= cudaMemLocationTypeHostNumaCurrent;
}
static bool device0(struct cudaMemLocation l) { return l.type == cudaMemLocationTypeDevice && l.id == 0; }

// A prefetch to the device makes the allocation resident in stream order, when the queue reaches it (the
// H200's free memory had not dropped right after the call, and had by 256 MiB after synchronizing). One to
// the host changes nothing: the H200 kept the device memory until cudaFree.
struct prefetch_op : op {
    const void *p;
    void run() override { make_resident(p); }
};

// Device 0 is the only device, so any other is 101 (the H200 answered so for 99 and -1); a host location's
// id is ignored (host 7 gave 0), the NUMA kinds were accepted with node 0, type 0 gave 1.
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, struct cudaMemLocation to, unsigned int flags,
                                 cudaStream_t stream, cudawb_site) {
    const char *fn = "cudaMemPrefetchAsync";
    if (cudaError_t e = enter(fn)) return e;
    if (!managed_range(p, n) || flags != 0) return fail(fn, cudaErrorInvalidValue);
    if (!known_location(to)) return fail(fn, cudaErrorInvalidValue);
    if (to.type == cudaMemLocationTypeDevice && to.id != 0) return fail(fn, cudaErrorInvalidDevice);
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    if (to.type != cudaMemLocationTypeDevice) return cudaSuccess;
    prefetch_op *o = new prefetch_op;
    o->p = p;
    o->stream = stream;
    enqueue(o);
    return cudaSuccess;
}

// Which locations an advice accepts, as the H200 answered every advice with every kind of location: a
// location of type 0 never; PreferredLocation any host kind or device 0; AccessedBy (set or unset) only
// device 0 or the plain host; the others ignore the location. A bad device is 1 here, not 101.
static bool advice_location_ok(enum cudaMemoryAdvise advice, struct cudaMemLocation at) {
    if (!known_location(at)) return false;
    if (advice == cudaMemAdviseSetPreferredLocation) return at.type != cudaMemLocationTypeDevice || device0(at);
    if (advice == cudaMemAdviseSetAccessedBy || advice == cudaMemAdviseUnsetAccessedBy)
        return device0(at) || at.type == cudaMemLocationTypeHost;
    return true;
}

// Advice changes no result on the GPU, only speed, and there is nowhere else for the memory to be here: it
// is only validated.
cudaError_t cudaMemAdvise(const void *p, size_t n, enum cudaMemoryAdvise advice, struct cudaMemLocation at,
                          cudawb_site) {
    const char *fn = "cudaMemAdvise";
    if (cudaError_t e = enter(fn)) return e;
    if (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy || !managed_range(p, n) ||
        !advice_location_ok(advice, at))
        return fail(fn, cudaErrorInvalidValue);
    return cudaSuccess;
}

// cudaHostRegister pins memory the program already has (malloc'd): kernels may then use it, as the H200's did,
// while a kernel given a plain malloc pointer fails with 700. Registering any part of it again gives 712;
// unregistering what is not registered 713 (measured). The flags are only checked to be known ones.
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags, cudawb_site at) {
    const char *fn = "cudaHostRegister";
    if (cudaError_t e = enter(fn)) return e;
    if (!ptr || size == 0 || (flags & ~0x0fu)) return fail(fn, cudaErrorInvalidValue);
    return fail(fn, (cudaError_t)register_host(ptr, size, at));
}

// Work already queued may still read the memory: like cudaFreeHost, it waits for it first.
cudaError_t cudaHostUnregister(void *ptr, cudawb_site) {
    const char *fn = "cudaHostUnregister";
    if (cudaError_t e = enter(fn)) return e;
    if (cudaError_t e = flush()) return fail(fn, e);
    return unregister_host(ptr) ? cudaSuccess : fail(fn, cudaErrorHostMemoryNotRegistered);
}
