/* driver_types.h: CUDA 13 runtime types, enums and flags, written for the workbook's CPU backend. */
#ifndef CUDAWB_DRIVER_TYPES_H
#define CUDAWB_DRIVER_TYPES_H
/* CUDA's own guard: code that tests it (cuda-samples' helper_cuda.h defines checkCudaErrors only then) sees
   the runtime's types here too. */
#define __DRIVER_TYPES_H__
#include <stddef.h>

#define CUDART_VERSION 13000
#define __CUDART_API_VERSION CUDART_VERSION

enum cudaError {
#define CUDAWB_ERROR(num, name, text) name = num,
#include "cudawb/errors.def"
#undef CUDAWB_ERROR
    cudaErrorApiFailureBase = 10000
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4
};
enum cudaMemoryType { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2,
                      cudaMemoryTypeManaged = 3 };
enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9,
    cudaFuncAttributeClusterDimMustBeSet = 10, cudaFuncAttributeRequiredClusterWidth = 11,
    cudaFuncAttributeRequiredClusterHeight = 12, cudaFuncAttributeRequiredClusterDepth = 13,
    cudaFuncAttributeNonPortableClusterSizeAllowed = 14, cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
    cudaFuncAttributeMax
};
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2,
                     cudaFuncCachePreferEqual = 3 };
enum cudaMemLocationType { cudaMemLocationTypeInvalid = 0, cudaMemLocationTypeNone = 0,
                           cudaMemLocationTypeDevice = 1, cudaMemLocationTypeHost = 2,
                           cudaMemLocationTypeHostNuma = 3, cudaMemLocationTypeHostNumaCurrent = 4 };
struct cudaMemLocation { enum cudaMemLocationType type; int id; };
enum cudaMemoryAdvise {
    cudaMemAdviseSetReadMostly = 1, cudaMemAdviseUnsetReadMostly = 2, cudaMemAdviseSetPreferredLocation = 3,
    cudaMemAdviseUnsetPreferredLocation = 4, cudaMemAdviseSetAccessedBy = 5, cudaMemAdviseUnsetAccessedBy = 6
};
/* Every attribute of CUDA 13.0, with its number (cudawb/device_attrs.def). */
enum cudaDeviceAttr {
#define CUDAWB_DEVICE_ATTR(name, number, h200) cudaDevAttr##name = number,
#include "cudawb/device_attrs.def"
#undef CUDAWB_DEVICE_ATTR
    cudaDevAttrMax
};
/* What cudaDevAttrComputeMode answers (CUDA 13 keeps it there, not in cudaDeviceProp): the CPU backend's device
   is in the default mode, as the H200 was. */
enum cudaComputeMode {
    cudaComputeModeDefault = 0, cudaComputeModeExclusive = 1, cudaComputeModeProhibited = 2,
    cudaComputeModeExclusiveProcess = 3
};

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUuuid_st { char bytes[16]; } cudaUUID_t;
/* Stream-ordered allocation (cudaMallocAsync): memory pools, CUDA 13's numbering. */
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
enum cudaMemPoolAttr {
    cudaMemPoolReuseFollowEventDependencies = 1, cudaMemPoolReuseAllowOpportunistic = 2,
    cudaMemPoolReuseAllowInternalDependencies = 3, cudaMemPoolAttrReleaseThreshold = 4,
    cudaMemPoolAttrReservedMemCurrent = 5, cudaMemPoolAttrReservedMemHigh = 6, cudaMemPoolAttrUsedMemCurrent = 7,
    cudaMemPoolAttrUsedMemHigh = 8
};
enum cudaMemAllocationType { cudaMemAllocationTypeInvalid = 0, cudaMemAllocationTypePinned = 1,
                             cudaMemAllocationTypeManaged = 2, cudaMemAllocationTypeMax = 0x7FFFFFFF };
enum cudaMemAllocationHandleType { cudaMemHandleTypeNone = 0, cudaMemHandleTypePosixFileDescriptor = 1,
                                   cudaMemHandleTypeWin32 = 2, cudaMemHandleTypeWin32Kmt = 4,
                                   cudaMemHandleTypeFabric = 8 };
struct cudaMemPoolProps {
    enum cudaMemAllocationType allocType;
    enum cudaMemAllocationHandleType handleTypes;
    struct cudaMemLocation location;
    void *win32SecurityAttributes;
    size_t maxSize;
    unsigned short usage;
    unsigned char reserved[54];
};

struct cudaPointerAttributes { enum cudaMemoryType type; int device; void *devicePointer; void *hostPointer; };
struct cudaFuncAttributes {
    size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
    int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA, maxDynamicSharedSizeBytes,
        preferredShmemCarveout, clusterDimMustBeSet, requiredClusterWidth, requiredClusterHeight,
        requiredClusterDepth, clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed, reserved[16];
};
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
/* 3-D copies and memsets of linear memory (cudaMalloc3D, cudaMemcpy3D, cudaMemset3D): a width in bytes, a
   position's x in bytes. CUDA arrays exist only as a type here: a copy naming one returns 1. */
struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
struct cudaMemcpy3DParms {
    cudaArray_t srcArray; struct cudaPos srcPos; struct cudaPitchedPtr srcPtr;
    cudaArray_t dstArray; struct cudaPos dstPos; struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent; enum cudaMemcpyKind kind;
};

/* The fields of CUDA 13's cudaDeviceProp, same names and order (clockRate and friends are gone in 13). */
struct cudaDeviceProp {
    char name[256]; cudaUUID_t uuid; char luid[8]; unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem, sharedMemPerBlock; int regsPerBlock, warpSize; size_t memPitch;
    int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3]; size_t totalConstMem; int major, minor;
    size_t textureAlignment, texturePitchAlignment; int multiProcessorCount, integrated, canMapHostMemory;
    int maxTexture1D, maxTexture1DMipmap, maxTexture2D[2], maxTexture2DMipmap[2], maxTexture2DLinear[3],
        maxTexture2DGather[2], maxTexture3D[3], maxTexture3DAlt[3], maxTextureCubemap, maxTexture1DLayered[2],
        maxTexture2DLayered[3], maxTextureCubemapLayered[2], maxSurface1D, maxSurface2D[2], maxSurface3D[3],
        maxSurface1DLayered[2], maxSurface2DLayered[3], maxSurfaceCubemap, maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount,
        unifiedAddressing, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize, maxThreadsPerMultiProcessor,
        streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID, hostNativeAtomicSupported,
        pageableMemoryAccess, concurrentManagedAccess, computePreemptionSupported,
        canUseHostPointerForRegisteredMem, cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost, maxBlocksPerMultiProcessor,
        accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported,
        timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions; int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers,
        deviceNumaConfig, deviceNumaId, mpsEnabled, hostNumaId;
    unsigned int gpuPciDeviceID, gpuPciSubsystemID; int hostNumaMultinodeIpcSupported, reserved[56];
};

/* CUDA graphs and stream capture (cpu/src/capture.cpp, graph.cpp, graph_exec.cpp): CUDA 13.0's types and
   numbering. cudaKernelNodeParams, cudaHostNodeParams and the calls are in cuda_runtime_api.h (they need dim3
   and cudaHostFn_t). */
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1,
                             cudaStreamCaptureModeRelaxed = 2 };
enum cudaStreamCaptureStatus { cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1,
                               cudaStreamCaptureStatusInvalidated = 2 };
enum cudaStreamUpdateCaptureDependenciesFlags { cudaStreamAddCaptureDependencies = 0x0,
                                                cudaStreamSetCaptureDependencies = 0x1 };
enum cudaGraphNodeType {
    cudaGraphNodeTypeKernel = 0x00, cudaGraphNodeTypeMemcpy = 0x01, cudaGraphNodeTypeMemset = 0x02,
    cudaGraphNodeTypeHost = 0x03, cudaGraphNodeTypeGraph = 0x04, cudaGraphNodeTypeEmpty = 0x05,
    cudaGraphNodeTypeWaitEvent = 0x06, cudaGraphNodeTypeEventRecord = 0x07, cudaGraphNodeTypeExtSemaphoreSignal = 0x08,
    cudaGraphNodeTypeExtSemaphoreWait = 0x09, cudaGraphNodeTypeMemAlloc = 0x0a, cudaGraphNodeTypeMemFree = 0x0b,
    cudaGraphNodeTypeConditional = 0x0d, cudaGraphNodeTypeCount
};
typedef struct cudaGraphEdgeData_st {
    unsigned char from_port, to_port, type, reserved[5];
} cudaGraphEdgeData;
enum cudaMemAccessFlags { cudaMemAccessFlagsProtNone = 0, cudaMemAccessFlagsProtRead = 1,
                          cudaMemAccessFlagsProtReadWrite = 3 };
struct cudaMemAccessDesc { struct cudaMemLocation location; enum cudaMemAccessFlags flags; };
struct cudaMemAllocNodeParams {
    struct cudaMemPoolProps poolProps;
    const struct cudaMemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr;
};
enum cudaEventRecordFlags { cudaEventRecordDefault = 0, cudaEventRecordExternal = 1 };
enum cudaEventWaitFlags { cudaEventWaitDefault = 0, cudaEventWaitExternal = 1 };
enum cudaGraphInstantiateFlags { cudaGraphInstantiateFlagAutoFreeOnLaunch = 1, cudaGraphInstantiateFlagUpload = 2,
                                 cudaGraphInstantiateFlagDeviceLaunch = 4, cudaGraphInstantiateFlagUseNodePriority = 8 };
enum cudaGraphExecUpdateResult {
    cudaGraphExecUpdateSuccess = 0x0, cudaGraphExecUpdateError = 0x1, cudaGraphExecUpdateErrorTopologyChanged = 0x2,
    cudaGraphExecUpdateErrorNodeTypeChanged = 0x3, cudaGraphExecUpdateErrorFunctionChanged = 0x4,
    cudaGraphExecUpdateErrorParametersChanged = 0x5, cudaGraphExecUpdateErrorNotSupported = 0x6,
    cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7, cudaGraphExecUpdateErrorAttributesChanged = 0x8
};
typedef struct cudaGraphExecUpdateResultInfo_st {
    enum cudaGraphExecUpdateResult result;
    cudaGraphNode_t errorNode, errorFromNode;
} cudaGraphExecUpdateResultInfo;
struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned int value, elementSize;
    size_t width, height;
};

#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04 /* its old name, deprecated but still in CUDA 13 */
#define cudaDeviceMapHost 0x08
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
/* cudaDeviceSetLimit / cudaDeviceGetLimit (src/limits.cpp); CUDA 13's numbering */
enum cudaLimit {
    cudaLimitStackSize = 0,
    cudaLimitPrintfFifoSize = 1,
    cudaLimitMallocHeapSize = 2,
    cudaLimitDevRuntimeSyncDepth = 3,
    cudaLimitDevRuntimePendingLaunchCount = 4,
    cudaLimitMaxL2FetchGranularity = 5,
    cudaLimitPersistingL2CacheSize = 6
};
/* cudaDeviceGetGraphMemAttribute: what graph allocations use (src/graph_nodes.cpp) */
enum cudaGraphMemAttributeType {
    cudaGraphMemAttrUsedMemCurrent = 0,
    cudaGraphMemAttrUsedMemHigh = 1,
    cudaGraphMemAttrReservedMemCurrent = 2,
    cudaGraphMemAttrReservedMemHigh = 3
};
#endif
