// The real runtime functions that the shim wraps (GNU ld's --wrap names them __real_*), and the
// state shared by the runtime shim and the cuBLAS shim.
#ifndef CUDAWB_SHIM_H
#define CUDAWB_SHIM_H

#include <stddef.h>
#include <cuda_runtime_api.h>

cudaError_t __real_cudaMalloc(void **ptr, size_t size);
cudaError_t __real_cudaMallocManaged(void **ptr, size_t size, unsigned int flags);
cudaError_t __real_cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height);
cudaError_t __real_cudaMallocHost(void **ptr, size_t size);
cudaError_t __real_cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
cudaError_t __real_cudaFree(void *ptr);
cudaError_t __real_cudaFreeHost(void *ptr);
cudaError_t __real_cudaStreamCreate(cudaStream_t *stream);
cudaError_t __real_cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
cudaError_t __real_cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority);
cudaError_t __real_cudaStreamDestroy(cudaStream_t stream);
cudaError_t __real_cudaEventCreate(cudaEvent_t *event);
cudaError_t __real_cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t __real_cudaEventDestroy(cudaEvent_t event);

// Appends one line to the report's per-call section (printf-style).
void cudawb_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// cuBLAS handles alive now: created by cublasCreate, not yet destroyed.
extern long cudawb_live_handles;

#endif
