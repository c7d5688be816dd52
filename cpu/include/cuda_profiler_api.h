/* cuda_profiler_api.h: cudaProfilerStart and cudaProfilerStop, for the CPU backend. No profiler attaches to it:
   both do nothing and return cudaSuccess, as they do on a GPU that no profiler watches. */
#ifndef CUDAWB_CUDA_PROFILER_API_H
#define CUDAWB_CUDA_PROFILER_API_H
#define __CUDA_PROFILER_API_H__
#include "cuda_runtime_api.h"
static inline cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
static inline cudaError_t cudaProfilerStop(void) { return cudaSuccess; }
#endif
