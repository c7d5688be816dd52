// device.cpp: the one simulated device: its properties and attributes, cudaSetDevice, cudaDeviceReset.
#include "internal.h"
#include <string.h>
#include <unistd.h>

using namespace rt;

cudaError_t cudaGetDeviceCount(int *count, cudawb_site) {
    init();
    if (!count) return fail("cudaGetDeviceCount", cudaErrorInvalidValue);
    // with no device the H200's runtime left the count as it was (-1 stayed -1)
    if (cfg.no_device) return fail("cudaGetDeviceCount", cudaErrorNoDevice);
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device) {
    if (cudaError_t e = enter("cudaGetDevice")) return e;
    if (!device) return fail("cudaGetDevice", cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
    if (cudaError_t e = enter("cudaSetDevice")) return e;
    return device == 0 ? cudaSuccess : fail("cudaSetDevice", cudaErrorInvalidDevice);
}

cudaError_t cudaSetDeviceFlags(unsigned int) { return enter("cudaSetDeviceFlags"); }
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache) { return enter("cudaDeviceSetCacheConfig"); }

cudaError_t cudaDriverGetVersion(int *version, cudawb_site) {
    if (!version) return fail("cudaDriverGetVersion", cudaErrorInvalidValue);
    *version = 13000;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *version, cudawb_site) {
    if (!version) return fail("cudaRuntimeGetVersion", cudaErrorInvalidValue);
    *version = CUDART_VERSION;
    return cudaSuccess;
}

// The H200's answer to an attribute (cudawb/device_attrs.def), or -2 for a number that is no attribute.
static long long h200_attribute(int attr) {
    switch (attr) {
#define CUDAWB_DEVICE_ATTR(name, number, h200) case number: return h200;
#include "../include/cudawb/device_attrs.def"
#undef CUDAWB_DEVICE_ATTR
    }
    return -2;
}
static int attr(enum cudaDeviceAttr a) { return (int)h200_attribute(a); }
int rt::device_attribute(enum cudaDeviceAttr a) { return attr(a); }

// The texture and surface limits, which the H200's properties report as its attributes do.
static void texture_limits(struct cudaDeviceProp *p) {
    p->maxTexture1D = attr(cudaDevAttrMaxTexture1DWidth);
    p->maxTexture1DMipmap = attr(cudaDevAttrMaxTexture1DMipmappedWidth);
    p->maxTexture2D[0] = attr(cudaDevAttrMaxTexture2DWidth);
    p->maxTexture2D[1] = attr(cudaDevAttrMaxTexture2DHeight);
    p->maxTexture2DMipmap[0] = attr(cudaDevAttrMaxTexture2DMipmappedWidth);
    p->maxTexture2DMipmap[1] = attr(cudaDevAttrMaxTexture2DMipmappedHeight);
    p->maxTexture2DLinear[0] = attr(cudaDevAttrMaxTexture2DLinearWidth);
    p->maxTexture2DLinear[1] = attr(cudaDevAttrMaxTexture2DLinearHeight);
    p->maxTexture2DLinear[2] = attr(cudaDevAttrMaxTexture2DLinearPitch);
    p->maxTexture2DGather[0] = attr(cudaDevAttrMaxTexture2DGatherWidth);
    p->maxTexture2DGather[1] = attr(cudaDevAttrMaxTexture2DGatherHeight);
    p->maxTexture3D[0] = attr(cudaDevAttrMaxTexture3DWidth);
    p->maxTexture3D[1] = attr(cudaDevAttrMaxTexture3DHeight);
    p->maxTexture3D[2] = attr(cudaDevAttrMaxTexture3DDepth);
    p->maxTexture3DAlt[0] = attr(cudaDevAttrMaxTexture3DWidthAlt);
    p->maxTexture3DAlt[1] = attr(cudaDevAttrMaxTexture3DHeightAlt);
    p->maxTexture3DAlt[2] = attr(cudaDevAttrMaxTexture3DDepthAlt);
    p->maxTextureCubemap = attr(cudaDevAttrMaxTextureCubemapWidth);
    p->maxTexture1DLayered[0] = attr(cudaDevAttrMaxTexture1DLayeredWidth);
    p->maxTexture1DLayered[1] = attr(cudaDevAttrMaxTexture1DLayeredLayers);
    p->maxTexture2DLayered[0] = attr(cudaDevAttrMaxTexture2DLayeredWidth);
    p->maxTexture2DLayered[1] = attr(cudaDevAttrMaxTexture2DLayeredHeight);
    p->maxTexture2DLayered[2] = attr(cudaDevAttrMaxTexture2DLayeredLayers);
    p->maxTextureCubemapLayered[0] = attr(cudaDevAttrMaxTextureCubemapLayeredWidth);
    p->maxTextureCubemapLayered[1] = attr(cudaDevAttrMaxTextureCubemapLayeredLayers);
    p->maxSurface1D = attr(cudaDevAttrMaxSurface1DWidth);
    p->maxSurface2D[0] = attr(cudaDevAttrMaxSurface2DWidth);
    p->maxSurface2D[1] = attr(cudaDevAttrMaxSurface2DHeight);
    p->maxSurface3D[0] = attr(cudaDevAttrMaxSurface3DWidth);
    p->maxSurface3D[1] = attr(cudaDevAttrMaxSurface3DHeight);
    p->maxSurface3D[2] = attr(cudaDevAttrMaxSurface3DDepth);
    p->maxSurface1DLayered[0] = attr(cudaDevAttrMaxSurface1DLayeredWidth);
    p->maxSurface1DLayered[1] = attr(cudaDevAttrMaxSurface1DLayeredLayers);
    p->maxSurface2DLayered[0] = attr(cudaDevAttrMaxSurface2DLayeredWidth);
    p->maxSurface2DLayered[1] = attr(cudaDevAttrMaxSurface2DLayeredHeight);
    p->maxSurface2DLayered[2] = attr(cudaDevAttrMaxSurface2DLayeredLayers);
    p->maxSurfaceCubemap = attr(cudaDevAttrMaxSurfaceCubemapWidth);
    p->maxSurfaceCubemapLayered[0] = attr(cudaDevAttrMaxSurfaceCubemapLayeredWidth);
    p->maxSurfaceCubemapLayered[1] = attr(cudaDevAttrMaxSurfaceCubemapLayeredLayers);
}

// The H200's properties (facts/h200-device-attributes.txt), but for the name, which says what runs the
// program, and the memory, which is this backend's simulated capacity (CUDAWB_CPU_MEMORY).
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device, cudawb_site) {
    if (cudaError_t e = enter("cudaGetDeviceProperties")) return e;
    if (!p) return fail("cudaGetDeviceProperties", cudaErrorInvalidValue);
    if (device != 0) return fail("cudaGetDeviceProperties", cudaErrorInvalidDevice);
    memset(p, 0, sizeof *p);
    strcpy(p->name, "CUDA Memory Workbook CPU backend");
    p->totalGlobalMem = cfg.capacity;
    p->sharedMemPerBlock = (size_t)attr(cudaDevAttrMaxSharedMemoryPerBlock);
    p->sharedMemPerBlockOptin = (size_t)attr(cudaDevAttrMaxSharedMemoryPerBlockOptin);
    p->sharedMemPerMultiprocessor = (size_t)attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
    p->reservedSharedMemPerBlock = (size_t)attr(cudaDevAttrReservedSharedMemoryPerBlock);
    p->regsPerBlock = attr(cudaDevAttrMaxRegistersPerBlock);
    p->regsPerMultiprocessor = attr(cudaDevAttrMaxRegistersPerMultiprocessor);
    p->warpSize = attr(cudaDevAttrWarpSize);
    p->memPitch = (size_t)attr(cudaDevAttrMaxPitch);
    p->maxThreadsPerBlock = attr(cudaDevAttrMaxThreadsPerBlock);
    p->maxThreadsDim[0] = attr(cudaDevAttrMaxBlockDimX);
    p->maxThreadsDim[1] = attr(cudaDevAttrMaxBlockDimY);
    p->maxThreadsDim[2] = attr(cudaDevAttrMaxBlockDimZ);
    p->maxGridSize[0] = attr(cudaDevAttrMaxGridDimX);
    p->maxGridSize[1] = attr(cudaDevAttrMaxGridDimY);
    p->maxGridSize[2] = attr(cudaDevAttrMaxGridDimZ);
    p->totalConstMem = (size_t)attr(cudaDevAttrTotalConstantMemory);
    p->major = attr(cudaDevAttrComputeCapabilityMajor);
    p->minor = attr(cudaDevAttrComputeCapabilityMinor);
    p->textureAlignment = (size_t)attr(cudaDevAttrTextureAlignment);
    p->texturePitchAlignment = (size_t)attr(cudaDevAttrTexturePitchAlignment);
    p->surfaceAlignment = (size_t)attr(cudaDevAttrSurfaceAlignment);
    texture_limits(p);
    p->multiProcessorCount = attr(cudaDevAttrMultiProcessorCount);
    p->integrated = attr(cudaDevAttrIntegrated);
    p->canMapHostMemory = attr(cudaDevAttrCanMapHostMemory);
    p->concurrentKernels = attr(cudaDevAttrConcurrentKernels);
    p->ECCEnabled = attr(cudaDevAttrEccEnabled);
    p->pciBusID = attr(cudaDevAttrPciBusId);
    p->pciDeviceID = attr(cudaDevAttrPciDeviceId);
    p->pciDomainID = attr(cudaDevAttrPciDomainId);
    p->tccDriver = attr(cudaDevAttrTccDriver);
    p->asyncEngineCount = attr(cudaDevAttrAsyncEngineCount);
    p->unifiedAddressing = attr(cudaDevAttrUnifiedAddressing);
    p->memoryBusWidth = attr(cudaDevAttrGlobalMemoryBusWidth);
    p->l2CacheSize = attr(cudaDevAttrL2CacheSize);
    p->persistingL2CacheMaxSize = attr(cudaDevAttrMaxPersistingL2CacheSize);
    p->maxThreadsPerMultiProcessor = attr(cudaDevAttrMaxThreadsPerMultiProcessor);
    p->streamPrioritiesSupported = attr(cudaDevAttrStreamPrioritiesSupported);
    p->globalL1CacheSupported = attr(cudaDevAttrGlobalL1CacheSupported);
    p->localL1CacheSupported = attr(cudaDevAttrLocalL1CacheSupported);
    p->managedMemory = attr(cudaDevAttrManagedMemory);
    p->isMultiGpuBoard = attr(cudaDevAttrIsMultiGpuBoard);
    p->multiGpuBoardGroupID = attr(cudaDevAttrMultiGpuBoardGroupID);
    p->hostNativeAtomicSupported = attr(cudaDevAttrHostNativeAtomicSupported);
    p->pageableMemoryAccess = attr(cudaDevAttrPageableMemoryAccess);
    p->concurrentManagedAccess = attr(cudaDevAttrConcurrentManagedAccess);
    p->computePreemptionSupported = attr(cudaDevAttrComputePreemptionSupported);
    p->canUseHostPointerForRegisteredMem = attr(cudaDevAttrCanUseHostPointerForRegisteredMem);
    p->cooperativeLaunch = attr(cudaDevAttrCooperativeLaunch);
    p->pageableMemoryAccessUsesHostPageTables = attr(cudaDevAttrPageableMemoryAccessUsesHostPageTables);
    p->directManagedMemAccessFromHost = attr(cudaDevAttrDirectManagedMemAccessFromHost);
    p->maxBlocksPerMultiProcessor = attr(cudaDevAttrMaxBlocksPerMultiprocessor);
    p->accessPolicyMaxWindowSize = attr(cudaDevAttrMaxAccessPolicyWindowSize);
    p->hostRegisterSupported = attr(cudaDevAttrHostRegisterSupported);
    p->sparseCudaArraySupported = attr(cudaDevAttrSparseCudaArraySupported);
    p->hostRegisterReadOnlySupported = attr(cudaDevAttrHostRegisterReadOnlySupported);
    p->timelineSemaphoreInteropSupported = attr(cudaDevAttrTimelineSemaphoreInteropSupported);
    p->memoryPoolsSupported = attr(cudaDevAttrMemoryPoolsSupported);
    p->gpuDirectRDMASupported = attr(cudaDevAttrGPUDirectRDMASupported);
    p->gpuDirectRDMAFlushWritesOptions = (unsigned)attr(cudaDevAttrGPUDirectRDMAFlushWritesOptions);
    p->gpuDirectRDMAWritesOrdering = attr(cudaDevAttrGPUDirectRDMAWritesOrdering);
    p->memoryPoolSupportedHandleTypes = (unsigned)attr(cudaDevAttrMemoryPoolSupportedHandleTypes);
    p->deferredMappingCudaArraySupported = attr(cudaDevAttrDeferredMappingCudaArraySupported);
    p->ipcEventSupported = attr(cudaDevAttrIpcEventSupport);
    p->clusterLaunch = attr(cudaDevAttrClusterLaunch);
    p->unifiedFunctionPointers = 1;  // a property with no attribute: the H200's answer
    p->deviceNumaConfig = attr(cudaDevAttrNumaConfig);
    p->deviceNumaId = attr(cudaDevAttrNumaId);
    p->mpsEnabled = attr(cudaDevAttrMpsEnabled);
    p->hostNumaId = attr(cudaDevAttrHostNumaId);
    p->gpuPciDeviceID = (unsigned)attr(cudaDevAttrGpuPciDeviceId);
    p->gpuPciSubsystemID = (unsigned)attr(cudaDevAttrGpuPciSubsystemId);
    p->hostNumaMultinodeIpcSupported = attr(cudaDevAttrHostNumaMultinodeIpcSupported);
    return cudaSuccess;
}

// Every attribute as the H200 answered it; a number that is no attribute is 1 (CUDA's documented answer,
// not measured).
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr a, int device, cudawb_site) {
    if (cudaError_t e = enter("cudaDeviceGetAttribute")) return e;
    if (!value) return fail("cudaDeviceGetAttribute", cudaErrorInvalidValue);
    if (device != 0) return fail("cudaDeviceGetAttribute", cudaErrorInvalidDevice);
    long long v = h200_attribute(a);
    if (v == -2) return fail("cudaDeviceGetAttribute", cudaErrorInvalidValue);
    *value = (int)v;
    return cudaSuccess;
}

// After a sticky kernel error the H200 answered the reset with 0 and then refused the device (46).
cudaError_t cudaDeviceReset(void) {
    init();
    if (cfg.no_device) return fail("cudaDeviceReset", cudaErrorNoDevice);
    if (!sticky_error()) flush();
    free_everything();
    device_reset_errors();
    return cudaSuccess;
}
