// limits.cpp: the device's limits (cudaDeviceSetLimit / cudaDeviceGetLimit) and its stream priority range.
// The defaults are CUDA 13's documented ones; the H200's own answers are on cpu/README.md's list "To measure
// on the GPU". A limit is only remembered: device malloc and new here come from the host's heap, whatever
// cudaLimitMallocHeapSize says, and a thread's stack is a fiber's (CUDAWB_CPU_STACK).
#include "internal.h"
#include <mutex>

using namespace rt;

namespace {
std::mutex limits_mu;
size_t limits[] = {
    1024,     // cudaLimitStackSize: bytes per thread
    1 << 20,  // cudaLimitPrintfFifoSize: device printf's buffer
    8 << 20,  // cudaLimitMallocHeapSize: device malloc's heap
    2,        // cudaLimitDevRuntimeSyncDepth
    2048,     // cudaLimitDevRuntimePendingLaunchCount
    64,       // cudaLimitMaxL2FetchGranularity: bytes
    0,        // cudaLimitPersistingL2CacheSize: bytes set aside, at most cudaDevAttrMaxPersistingL2CacheSize
};
const int limit_count = sizeof limits / sizeof limits[0];
}  // namespace

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
    if (cudaError_t e = enter("cudaDeviceSetLimit")) return e;
    const char *fn = "cudaDeviceSetLimit";
    if ((int)limit < 0 || (int)limit >= limit_count) return fail(fn, cudaErrorUnsupportedLimit);
    if (limit == cudaLimitMaxL2FetchGranularity && value > 128) return fail(fn, cudaErrorInvalidValue);
    if (limit == cudaLimitPersistingL2CacheSize) {
        size_t most = (size_t)device_attribute(cudaDevAttrMaxPersistingL2CacheSize);
        if (value > most) value = most;
    }
    std::lock_guard<std::mutex> g(limits_mu);
    limits[limit] = value;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit) {
    if (cudaError_t e = enter("cudaDeviceGetLimit")) return e;
    const char *fn = "cudaDeviceGetLimit";
    if ((int)limit < 0 || (int)limit >= limit_count) return fail(fn, cudaErrorUnsupportedLimit);
    if (!pValue) return fail(fn, cudaErrorInvalidValue);
    std::lock_guard<std::mutex> g(limits_mu);
    *pValue = limits[limit];
    return cudaSuccess;
}

// Lower numbers are higher priorities: 0 the default and lowest, -5 the highest (CUDA 13 on compute
// capability 9.0). Either pointer may be NULL.
cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
    if (cudaError_t e = enter("cudaDeviceGetStreamPriorityRange")) return e;
    if (leastPriority) *leastPriority = 0;
    if (greatestPriority) *greatestPriority = -5;
    return cudaSuccess;
}
