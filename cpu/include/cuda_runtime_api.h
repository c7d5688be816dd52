/* cuda_runtime_api.h: the CUDA 13 runtime API as implemented by the workbook's CPU backend (C++ only). */
#ifndef CUDAWB_CUDA_RUNTIME_API_H
#define CUDAWB_CUDA_RUNTIME_API_H
#define __CUDA_RUNTIME_API_H__ /* CUDA's own guard, which helper headers test */
#ifndef __cplusplus
#error "the CPU backend's CUDA headers are C++: include them from .cu files (nvcc-cpu compiles .cu as C++)"
#endif
#include "driver_types.h"
#include "vector_types.h"

/* Where an allocation or free was called from (for the CUDAWB_REPORT leak report), filled in at the call
   site by GCC's __builtin_FILE/__builtin_LINE default arguments: no macro hides the real function names. */
struct cudawb_site {
    const char *file;
    int line;
    constexpr cudawb_site(const char *f = __builtin_FILE(), int l = __builtin_LINE()) : file(f), line(l) {}
};
#define CUDAWB_AT cudawb_site cudawb_at = cudawb_site()

/* A CUDA call implemented here, in the header, leaves no import of its own name in the program's object, as it
   does on a GPU (cudaMemcpyToSymbol): it leaves a mark instead, a reference to the weak symbol cudawb_api_NAME,
   never defined and never called, from which the grader's policy (grader/policy/) reads the call. */
#define CUDAWB_API(name) extern "C" __attribute__((weak)) const char cudawb_api_##name
#define CUDAWB_API_MARK(name) __asm__ volatile("" : : "r"(&cudawb_api_##name))

/* Errors and device management */
extern "C" cudaError_t cudaGetLastError(CUDAWB_AT);
extern "C" cudaError_t cudaPeekAtLastError(CUDAWB_AT);
const char *cudaGetErrorName(cudaError_t error);
const char *cudaGetErrorString(cudaError_t error);
extern "C" cudaError_t cudaGetDeviceCount(int *count, CUDAWB_AT);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
extern "C" cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device, CUDAWB_AT);
extern "C" cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device, CUDAWB_AT);
extern "C" cudaError_t cudaDeviceSynchronize(CUDAWB_AT);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
extern "C" cudaError_t cudaDriverGetVersion(int *version, CUDAWB_AT);
extern "C" cudaError_t cudaRuntimeGetVersion(int *version, CUDAWB_AT);
extern "C" cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes, CUDAWB_AT);
extern "C" cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr, CUDAWB_AT);

/* Allocation */
extern "C" cudaError_t cudaMalloc(void **devPtr, size_t size, CUDAWB_AT);
extern "C" cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal, CUDAWB_AT);
extern "C" cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height, CUDAWB_AT);
extern "C" cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent, CUDAWB_AT);
extern "C" cudaError_t cudaMallocHost(void **ptr, size_t size, CUDAWB_AT);
extern "C" cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags, CUDAWB_AT);
extern "C" cudaError_t cudaFree(void *devPtr, CUDAWB_AT);
extern "C" cudaError_t cudaFreeHost(void *ptr, CUDAWB_AT);
extern "C" cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags, CUDAWB_AT);
extern "C" cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags, CUDAWB_AT);
extern "C" cudaError_t cudaHostUnregister(void *ptr, CUDAWB_AT);
/* Stream-ordered allocation and memory pools (pool.cpp) */
extern "C" cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream, CUDAWB_AT);
extern "C" cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream,
                                               CUDAWB_AT);
extern "C" cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream, CUDAWB_AT);
extern "C" cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device, CUDAWB_AT);
extern "C" cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device, CUDAWB_AT);
extern "C" cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool, CUDAWB_AT);
extern "C" cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps, CUDAWB_AT);
extern "C" cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool, CUDAWB_AT);
extern "C" cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value, CUDAWB_AT);
extern "C" cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value, CUDAWB_AT);
extern "C" cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep, CUDAWB_AT);
// CUDA 13 signatures only: CUDA 12's (..., int device, ...) forms do not compile with nvcc 13 either.
extern "C" cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                            unsigned int flags, cudaStream_t stream = 0, CUDAWB_AT);
extern "C" cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                     struct cudaMemLocation location, CUDAWB_AT);
template <class T> cudaError_t cudaMalloc(T **devPtr, size_t size, CUDAWB_AT) {
    return cudaMalloc((void **)devPtr, size, cudawb_at);
}
template <class T>
cudaError_t cudaMallocManaged(T **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal, CUDAWB_AT) {
    return cudaMallocManaged((void **)devPtr, size, flags, cudawb_at);
}
template <class T> cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height, CUDAWB_AT) {
    return cudaMallocPitch((void **)devPtr, pitch, width, height, cudawb_at);
}
template <class T> cudaError_t cudaMallocHost(T **ptr, size_t size, CUDAWB_AT) {
    return cudaMallocHost((void **)ptr, size, cudawb_at);
}
template <class T> cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags, CUDAWB_AT) {
    return cudaHostAlloc((void **)ptr, size, flags, cudawb_at);
}
template <class T> cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags, CUDAWB_AT) {
    return cudaHostAlloc((void **)ptr, size, flags, cudawb_at);
}
template <class T> cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost, unsigned int flags, CUDAWB_AT) {
    return cudaHostGetDevicePointer((void **)pDevice, pHost, flags, cudawb_at);
}
template <class T> cudaError_t cudaMallocAsync(T **devPtr, size_t size, cudaStream_t stream, CUDAWB_AT) {
    return cudaMallocAsync((void **)devPtr, size, stream, cudawb_at);
}
template <class T>
cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream, CUDAWB_AT) {
    return cudaMallocFromPoolAsync((void **)ptr, size, memPool, stream, cudawb_at);
}
template <class T>
cudaError_t cudaMallocFromPoolAsync(T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream, CUDAWB_AT) {
    return cudaMallocFromPoolAsync((void **)ptr, size, memPool, stream, cudawb_at);
}

/* Copies and memset */
extern "C" cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, CUDAWB_AT);
extern "C" cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream = 0, CUDAWB_AT);
extern "C" cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind, CUDAWB_AT);
extern "C" cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t stream = 0, CUDAWB_AT);
extern "C" cudaError_t cudaMemset(void *devPtr, int value, size_t count, CUDAWB_AT);
extern "C" cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream = 0, CUDAWB_AT);
extern "C" cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height, CUDAWB_AT);
/* 3-D (linear memory only: a cudaMemcpy3DParms naming a CUDA array returns 1) */
extern "C" cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p, CUDAWB_AT);
extern "C" cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream = 0, CUDAWB_AT);
extern "C" cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent, CUDAWB_AT);
extern "C" cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                         cudaStream_t stream = 0, CUDAWB_AT);
cudaError_t cudawb_memcpy_symbol(void *symbol, size_t symbol_size, void *other, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind, int to_symbol, cudaStream_t stream, int async);
cudaError_t cudawb_symbol_address(void **devPtr, void *symbol, size_t size);
CUDAWB_API(cudaMemcpyToSymbol);
CUDAWB_API(cudaMemcpyFromSymbol);
CUDAWB_API(cudaMemcpyToSymbolAsync);
CUDAWB_API(cudaMemcpyFromSymbolAsync);
CUDAWB_API(cudaGetSymbolAddress);
CUDAWB_API(cudaGetSymbolSize);
template <class T>
cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                               enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
    CUDAWB_API_MARK(cudaMemcpyToSymbol);
    return cudawb_memcpy_symbol((void *)&symbol, sizeof(T), (void *)src, count, offset, kind, 1, 0, 0);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                 enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
    CUDAWB_API_MARK(cudaMemcpyFromSymbol);
    return cudawb_memcpy_symbol((void *)&symbol, sizeof(T), dst, count, offset, kind, 0, 0, 0);
}
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                    enum cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0) {
    CUDAWB_API_MARK(cudaMemcpyToSymbolAsync);
    return cudawb_memcpy_symbol((void *)&symbol, sizeof(T), (void *)src, count, offset, kind, 1, stream, 1);
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                      enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = 0) {
    CUDAWB_API_MARK(cudaMemcpyFromSymbolAsync);
    return cudawb_memcpy_symbol((void *)&symbol, sizeof(T), dst, count, offset, kind, 0, stream, 1);
}
template <class T> cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
    CUDAWB_API_MARK(cudaGetSymbolAddress);
    return cudawb_symbol_address(devPtr, (void *)&symbol, sizeof(T));
}
template <class T> cudaError_t cudaGetSymbolSize(size_t *size, const T &) {
    CUDAWB_API_MARK(cudaGetSymbolSize);
    *size = sizeof(T);
    return cudaSuccess;
}

/* Streams, events, callbacks */
typedef void (*cudaHostFn_t)(void *userData);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);
extern "C" cudaError_t cudaStreamCreate(cudaStream_t *stream, CUDAWB_AT);
extern "C" cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags, CUDAWB_AT);
extern "C" cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority, CUDAWB_AT);
extern "C" cudaError_t cudaStreamDestroy(cudaStream_t stream, CUDAWB_AT);
extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t stream, CUDAWB_AT);
extern "C" cudaError_t cudaStreamQuery(cudaStream_t stream, CUDAWB_AT);
extern "C" cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0, CUDAWB_AT);
cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority);
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length = 0,
                                     unsigned int flags = cudaMemAttachSingle);
extern "C" cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData, CUDAWB_AT);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                  unsigned int flags);
extern "C" cudaError_t cudaEventCreate(cudaEvent_t *event, CUDAWB_AT);
extern "C" cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags, CUDAWB_AT);
extern "C" cudaError_t cudaEventDestroy(cudaEvent_t event, CUDAWB_AT);
extern "C" cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0, CUDAWB_AT);
extern "C" cudaError_t cudaEventSynchronize(cudaEvent_t event, CUDAWB_AT);
extern "C" cudaError_t cudaEventQuery(cudaEvent_t event, CUDAWB_AT);
extern "C" cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end, CUDAWB_AT);

/* CUDA graphs and stream capture (src/capture.cpp, graph.cpp, graph_exec.cpp), CUDA 13.0's signatures.
   While a stream captures, the work issued to it becomes graph nodes instead of running; a graph launched N
   times does its work N times. */
struct cudaKernelNodeParams {
    void *func;
    dim3 gridDim, blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams, **extra;
};
struct cudaHostNodeParams { cudaHostFn_t fn; void *userData; };
#define CUDART_CB /* the calling convention of host callbacks: nothing on Linux */
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus);
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                     unsigned long long *id_out = 0, cudaGraph_t *graph_out = 0,
                                     const cudaGraphNode_t **dependencies_out = 0,
                                     const cudaGraphEdgeData **edgeData_out = 0, size_t *numDependencies_out = 0);
cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);
cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct cudaMemcpy3DParms *pCopyParams);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                     const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                   size_t numDependencies, const struct cudaMemsetParams *pMemsetParams);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                 size_t numDependencies, const struct cudaHostNodeParams *pNodeParams);
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                       cudaGraph_t childGraph);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                  size_t numDependencies);
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                     const cudaGraphEdgeData *edgeData, size_t numDependencies);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes);
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                              cudaGraphEdgeData *edgeData, size_t *numEdges);
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                         cudaGraphEdgeData *edgeData, size_t *pNumDependencies);
cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                           cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType);
cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph);
cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags = 0);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags = 0);
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo *resultInfo);
/* Event and memory nodes (graph_nodes.cpp) */
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream = 0, unsigned int flags = 0);
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies, size_t numDependencies, cudaEvent_t event);
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t *pDependencies, size_t numDependencies, cudaEvent_t event);
cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out);
cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event);
cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out);
cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event);
cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, cudaEvent_t event);
cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, cudaEvent_t event);
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     struct cudaMemAllocNodeParams *nodeParams);
cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out);
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dptr);
cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out);
cudaError_t cudaDeviceGraphMemTrim(int device);
cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value);
cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value);

/* Launches: a rewritten k<<<g, b, shmem, stream>>>(args) calls this (cudawb/launch.h), with CUDA's
   cudaLaunchKernel parameters; the trace records it as cudaLaunchKernel. */
extern "C" cudaError_t cudawbLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                          size_t sharedMem, cudaStream_t stream, CUDAWB_AT);
/* What the trace asks of a kernel: its name and its parameters' sizes (registered at each launch). */
extern "C" int tr_kernel_info(const void *func, const char **name, size_t *sizes, int max);
void cudawb_register_kernel(const void *func, const char *name, int nparams, const size_t *sizes);

/* Kernel attributes (the kernel is identified by its address) */
cudaError_t cudawb_func_set_attribute(const void *func, enum cudaFuncAttribute attr, int value);
CUDAWB_API(cudaFuncSetAttribute);
CUDAWB_API(cudaFuncSetCacheConfig);
CUDAWB_API(cudaOccupancyMaxActiveBlocksPerMultiprocessor);
CUDAWB_API(cudaOccupancyMaxPotentialBlockSize);
extern "C" cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func, CUDAWB_AT);
template <class T> cudaError_t cudaFuncSetAttribute(T *func, enum cudaFuncAttribute attr, int value) {
    CUDAWB_API_MARK(cudaFuncSetAttribute);
    return cudawb_func_set_attribute((const void *)func, attr, value);
}
template <class T> cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *func, CUDAWB_AT) {
    return cudaFuncGetAttributes(attr, (const void *)func, cudawb_at);
}
template <class T> cudaError_t cudaFuncSetCacheConfig(T *, enum cudaFuncCache) {
    CUDAWB_API_MARK(cudaFuncSetCacheConfig);
    return cudaSuccess;
}
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T, size_t = 0, int limit = 0) {
    CUDAWB_API_MARK(cudaOccupancyMaxPotentialBlockSize);
    *blockSize = limit > 0 && limit < 1024 ? limit : 1024;
    int n = 0;
    cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, 0);
    *minGridSize = n * 2;
    return cudaSuccess;
}
/* Resident blocks per SM as the H200's limits allow them: 2048 threads (in whole warps), 32 blocks, 233472
   bytes of shared memory (each block also takes the 1024 the driver reserves). Registers are not counted:
   the CPU backend does not know a kernel's, so a register-heavy kernel gets more here than on the GPU. */
template <class T>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T, int blockSize, size_t dynamicSMemSize) {
    CUDAWB_API_MARK(cudaOccupancyMaxActiveBlocksPerMultiprocessor);
    if (!numBlocks || blockSize <= 0 || blockSize > 1024) return cudaErrorInvalidValue;
    int warps = (blockSize + 31) / 32, by_threads = 64 / warps, blocks = by_threads < 32 ? by_threads : 32;
    size_t smem = dynamicSMemSize + 1024;
    if ((size_t)blocks * smem > 233472) blocks = (int)(233472 / smem);
    *numBlocks = blocks;
    return cudaSuccess;
}
#endif
