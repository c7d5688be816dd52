// error.cpp: the error state of the runtime (last error per host thread, sticky kernel errors) and the
// names and strings of every cudaError_t, identical to CUDA 13's.
#include "graph.h"

namespace rt {
static __thread cudaError_t last_error = cudaSuccess;
static cudaError_t sticky = cudaSuccess;  // 700/710/719 after a kernel fault: the context is unusable
static int dead = 0;                      // cudaDeviceReset after a sticky error: 46 from then on

cudaError_t fail(const char *fn, cudaError_t e) {
    if (e != cudaSuccess) {
        last_error = e;
        memcheck_api_error(fn, e);
    }
    return e;
}

cudaError_t context_error() {
    init();
    if (cfg.no_device) return cudaErrorNoDevice;
    if (dead) return cudaErrorDevicesUnavailable;
    return sticky;
}

cudaError_t enter(const char *fn) {
    if (cudaError_t e = context_error()) return fail(fn, e);
    return fail(fn, capture_forbids(fn));  // a call stream capture forbids (capture.cpp)
}

void set_sticky(cudaError_t e) {
    if (!sticky) sticky = e;
}
cudaError_t sticky_error() { return sticky; }

// What the H200 did: the reset itself succeeds, the next cudaGetLastError still reports the old error, and
// the device stays unavailable for the rest of the process.
void device_reset_errors() {
    if (sticky) {
        last_error = sticky;
        dead = 1;
        sticky = cudaSuccess;
    }
}
} // namespace rt

// compute-sanitizer counts a cudaGetLastError that returns an error as an API error of its own (measured
// on the H200: four failed calls and the cudaGetLastError after them gave "ERROR SUMMARY: 5 errors").
cudaError_t cudaGetLastError(cudawb_site) {
    cudaError_t e = rt::last_error;
    rt::last_error = cudaSuccess;
    if (e != cudaSuccess) rt::memcheck_api_error("cudaGetLastError", e);
    return e;
}

cudaError_t cudaPeekAtLastError(cudawb_site) { return rt::last_error; }

const char *cudaGetErrorName(cudaError_t error) {
    switch ((int)error) {
#define CUDAWB_ERROR(num, name, text) case num: return #name;
#include "../include/cudawb/errors.def"
#undef CUDAWB_ERROR
    }
    return "unrecognized error code";
}

const char *cudaGetErrorString(cudaError_t error) {
    switch ((int)error) {
#define CUDAWB_ERROR(num, name, text) case num: return text;
#include "../include/cudawb/errors.def"
#undef CUDAWB_ERROR
    }
    return "unrecognized error code";
}
