// pool.cpp: stream-ordered allocation (cudaMallocAsync, cudaFreeAsync) and memory pools, as measured on the
// H200 (facts/gpu-facts.md, "Stream-ordered allocation, mapped and registered host memory").
//
// cudaMallocAsync allocates at once (the memory is usable by work queued after it, and 2^50 bytes fails at
// once with 2, not later); cudaFreeAsync queues the free on its stream, so the memory stays valid for the
// stream's earlier work and is released only when the queue reaches it. Neither waits for the device.
// A pool keeps the memory freed into it, counted by cudaMemGetInfo and against the capacity, as long as the
// pool's reserved memory (in use + kept) stays within its release threshold (default 0: after cudaFreeAsync
// and a synchronize the H200's free memory was back). The CPU backend runs a queued free only at a
// synchronizing call, so applying the threshold when the free runs is applying it at the synchronize, as
// CUDA does. cudaMallocAsync takes kept memory first; when the device is full it gives every pool's kept
// memory back and tries again. cudaMemPoolTrimTo gives kept memory back down to minBytesToKeep.
#include "graph.h"
#include <map>
#include <mutex>
#include <set>

struct CUmemPoolHandle_st {
    uint64_t threshold = 0;  // cudaMemPoolAttrReleaseThreshold
    size_t kept = 0;         // bytes freed into the pool and not given back
    size_t used_high = 0, reserved_high = 0;
    int reuse[3] = {1, 1, 1};  // the three cudaMemPoolReuse* flags (accepted, no effect here)
    bool created = false, destroyed = false;
};

namespace rt {
namespace {
struct pools {  // never destroyed (exit hooks may still synchronize)
    CUmemPoolHandle_st default_pool;
    cudaMemPool_t current = &default_pool;
    std::set<cudaMemPool_t> all{&default_pool};
    std::map<uintptr_t, cudaMemPool_t> owner;  // live stream-ordered allocations and their pool
    std::set<uintptr_t> freeing;               // ... whose cudaFreeAsync is queued
    std::recursive_mutex mu;
};
pools &S() {
    static pools *s = new pools;
    return *s;
}

// Bytes of the pool's allocations still live (cudaFree may have freed one behind the pool's back).
size_t used_bytes(cudaMemPool_t pool) {
    size_t n = 0;
    for (auto it = S().owner.begin(); it != S().owner.end();) {
        const alloc *a = find((void *)it->first);
        if (!a || a->base != it->first || a->kind != DEVICE) {
            it = S().owner.erase(it);
            continue;
        }
        if (it->second == pool) n += accounted(a->size);
        ++it;
    }
    return n;
}

void give_back(cudaMemPool_t pool, size_t bytes) {
    if (bytes > pool->kept) bytes = pool->kept;
    release_library(bytes);
    pool->kept -= bytes;
}

// Gives back what makes the pool hold more than `limit` bytes (in use + kept).
void trim(cudaMemPool_t pool, uint64_t limit) {
    size_t reserved = used_bytes(pool) + pool->kept;
    if (reserved > limit) give_back(pool, reserved - limit);
}

void note_high(cudaMemPool_t pool) {
    size_t used = used_bytes(pool);
    if (used > pool->used_high) pool->used_high = used;
    if (used + pool->kept > pool->reserved_high) pool->reserved_high = used + pool->kept;
}

bool valid_pool(cudaMemPool_t pool) { return pool && S().all.count(pool) && !pool->destroyed; }

cudaError_t malloc_async(const char *fn, void **ptr, size_t size, cudaMemPool_t pool, cudaStream_t stream,
                         const cudawb_site &at) {
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> g(S().mu);
    if (!ptr || !valid_pool(pool)) return fail(fn, cudaErrorInvalidValue);
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    cudaError_t captured;  // on a capturing stream: an alloc node of the graph (graph_nodes.cpp)
    if (capture_malloc(fn, stream, ptr, size, &captured)) return fail(fn, captured);
    *ptr = NULL;
    if (size == 0) return cudaSuccess;
    size_t take = accounted(size);
    if (pool->kept >= take) give_back(pool, take);  // reused: it was counted as kept until now
    cudaError_t e = allocate(ptr, size, DEVICE, fn, at);
    if (e == cudaErrorMemoryAllocation) {
        for (cudaMemPool_t p : S().all) give_back(p, p->kept);
        e = allocate(ptr, size, DEVICE, fn, at);
    }
    if (e) {
        *ptr = NULL;
        return fail(fn, e);
    }
    S().owner[(uintptr_t)*ptr] = pool;
    note_high(pool);
    return cudaSuccess;
}

// The queued half of cudaFreeAsync: the memory goes back to its pool (a cudaMalloc pointer, which the H200
// also accepted, straight back to the device).
struct free_op : op {
    void *p;
    void run() override {
        std::lock_guard<std::recursive_mutex> g(S().mu);
        S().freeing.erase((uintptr_t)p);
        auto it = S().owner.find((uintptr_t)p);
        cudaMemPool_t pool = it != S().owner.end() ? it->second : NULL;
        const alloc *a = find(p);
        size_t bytes = a ? accounted(a->size) : 0;
        if (!release(p, DEVICE) || !pool) return;
        S().owner.erase(it);
        if (reserve_library(bytes)) pool->kept += bytes;
        trim(pool, pool->threshold);
    }
};
} // namespace
} // namespace rt

using namespace rt;

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream, cudawb_site at) {
    return malloc_async("cudaMallocAsync", devPtr, size, S().current, stream, at);
}

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream,
                                    cudawb_site at) {
    return malloc_async("cudaMallocFromPoolAsync", ptr, size, memPool, stream, at);
}

// Freeing twice gives 1 (measured), at the call; so does a pointer that is not the start of device memory.
cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream, cudawb_site) {
    const char *fn = "cudaFreeAsync";
    if (cudaError_t e = enter(fn)) return e;
    if (!devPtr) return cudaSuccess;  // not measured: as cudaFree(NULL)
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    cudaError_t captured;  // on a capturing stream: a free node of the graph (graph_nodes.cpp)
    if (capture_free(stream, devPtr, &captured)) return fail(fn, captured);
    // an allocation a graph made: free until its graph's next launch, its address kept for that graph
    switch (graph_free(devPtr)) {
    case 0: return cudaSuccess;
    case 1: return fail(fn, cudaErrorInvalidValue);
    }
    {
        // not held while queueing: a flush takes the queue's lock, then (running a free) this one
        std::lock_guard<std::recursive_mutex> g(S().mu);
        const alloc *a = find(devPtr);
        if (!a || a->base != (uintptr_t)devPtr || a->kind != DEVICE || S().freeing.count((uintptr_t)devPtr))
            return fail(fn, cudaErrorInvalidValue);
        S().freeing.insert((uintptr_t)devPtr);
    }
    free_op *o = new free_op;
    o->p = devPtr;
    o->stream = stream;
    enqueue(o);
    return cudaSuccess;
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device, cudawb_site) {
    const char *fn = "cudaDeviceGetDefaultMemPool";
    if (cudaError_t e = enter(fn)) return e;
    if (!memPool) return fail(fn, cudaErrorInvalidValue);
    if (device != 0) return fail(fn, cudaErrorInvalidDevice);
    *memPool = &S().default_pool;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device, cudawb_site) {
    const char *fn = "cudaDeviceGetMemPool";
    if (cudaError_t e = enter(fn)) return e;
    if (!memPool) return fail(fn, cudaErrorInvalidValue);
    if (device != 0) return fail(fn, cudaErrorInvalidDevice);
    *memPool = S().current;
    return cudaSuccess;
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool, cudawb_site) {
    const char *fn = "cudaDeviceSetMemPool";
    if (cudaError_t e = enter(fn)) return e;
    if (device != 0) return fail(fn, cudaErrorInvalidDevice);
    std::lock_guard<std::recursive_mutex> g(S().mu);
    if (!valid_pool(memPool)) return fail(fn, cudaErrorInvalidValue);
    S().current = memPool;
    return cudaSuccess;
}

// A pool of device memory on device 0 is what the workbook needs; other kinds and places are refused with 1.
cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *props, cudawb_site) {
    const char *fn = "cudaMemPoolCreate";
    if (cudaError_t e = enter(fn)) return e;
    if (!memPool || !props || props->allocType != cudaMemAllocationTypePinned ||
        props->location.type != cudaMemLocationTypeDevice || props->location.id != 0)
        return fail(fn, cudaErrorInvalidValue);
    std::lock_guard<std::recursive_mutex> g(S().mu);
    cudaMemPool_t p = new CUmemPoolHandle_st;
    p->created = true;
    S().all.insert(p);
    *memPool = p;
    return cudaSuccess;
}

// Its kept memory goes back at once; allocations still live stay valid until freed (as CUDA documents).
cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool, cudawb_site) {
    const char *fn = "cudaMemPoolDestroy";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> g(S().mu);
    if (!valid_pool(memPool) || !memPool->created) return fail(fn, cudaErrorInvalidValue);
    give_back(memPool, memPool->kept);
    memPool->destroyed = true;
    if (S().current == memPool) S().current = &S().default_pool;
    return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value, cudawb_site) {
    const char *fn = "cudaMemPoolSetAttribute";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> g(S().mu);
    if (!valid_pool(memPool) || !value) return fail(fn, cudaErrorInvalidValue);
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
        memPool->reuse[attr - 1] = *(const int *)value;
        return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
        memPool->threshold = *(const uint64_t *)value;
        return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:  // only a reset to 0 is allowed: the mark goes back to the current value
    case cudaMemPoolAttrUsedMemHigh:
        if (*(const uint64_t *)value != 0) return fail(fn, cudaErrorInvalidValue);
        if (attr == cudaMemPoolAttrUsedMemHigh) memPool->used_high = used_bytes(memPool);
        else memPool->reserved_high = used_bytes(memPool) + memPool->kept;
        return cudaSuccess;
    default:
        return fail(fn, cudaErrorInvalidValue);
    }
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value, cudawb_site) {
    const char *fn = "cudaMemPoolGetAttribute";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> g(S().mu);
    if (!valid_pool(memPool) || !value) return fail(fn, cudaErrorInvalidValue);
    uint64_t *out = (uint64_t *)value;
    size_t used = used_bytes(memPool);
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
        *(int *)value = memPool->reuse[attr - 1];
        return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold: *out = memPool->threshold; return cudaSuccess;
    case cudaMemPoolAttrReservedMemCurrent: *out = used + memPool->kept; return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh: *out = memPool->reserved_high; return cudaSuccess;
    case cudaMemPoolAttrUsedMemCurrent: *out = used; return cudaSuccess;
    case cudaMemPoolAttrUsedMemHigh: *out = memPool->used_high; return cudaSuccess;
    default: return fail(fn, cudaErrorInvalidValue);
    }
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep, cudawb_site) {
    const char *fn = "cudaMemPoolTrimTo";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> g(S().mu);
    if (!valid_pool(memPool)) return fail(fn, cudaErrorInvalidValue);
    trim(memPool, minBytesToKeep);
    return cudaSuccess;
}
