// fact: Device properties: every cudaDeviceProp field that has a device attribute equals it (the texture and
// surface limits included, which facts/h200-device-attributes.txt lists only as attributes), and the fields
// only Windows fills (luid, luidDeviceNodeMask) are zero. Generated from cpu/src/device.cpp's assignments:
// one line per field; device_attributes.cu checks the attributes themselves against the H200's numbers.
#include "check.h"

static long long attr(enum cudaDeviceAttr a)
{
    int v = -12345;
    cudaError_t e = cudaDeviceGetAttribute(&v, a, 0);
    return e == cudaSuccess ? v : -1000000 - (long long)e;
}

int main(void)
{
    struct cudaDeviceProp p;
    check("cudaGetDeviceProperties returns 0", cudaGetDeviceProperties(&p, 0), 0);
    check("maxTexture1D is cudaDevAttrMaxTexture1DWidth", (long long)p.maxTexture1D, attr(cudaDevAttrMaxTexture1DWidth));
    check("maxTexture1DMipmap is cudaDevAttrMaxTexture1DMipmappedWidth", (long long)p.maxTexture1DMipmap, attr(cudaDevAttrMaxTexture1DMipmappedWidth));
    check("maxTexture2D[0] is cudaDevAttrMaxTexture2DWidth", (long long)p.maxTexture2D[0], attr(cudaDevAttrMaxTexture2DWidth));
    check("maxTexture2D[1] is cudaDevAttrMaxTexture2DHeight", (long long)p.maxTexture2D[1], attr(cudaDevAttrMaxTexture2DHeight));
    check("maxTexture2DMipmap[0] is cudaDevAttrMaxTexture2DMipmappedWidth", (long long)p.maxTexture2DMipmap[0], attr(cudaDevAttrMaxTexture2DMipmappedWidth));
    check("maxTexture2DMipmap[1] is cudaDevAttrMaxTexture2DMipmappedHeight", (long long)p.maxTexture2DMipmap[1], attr(cudaDevAttrMaxTexture2DMipmappedHeight));
    check("maxTexture2DLinear[0] is cudaDevAttrMaxTexture2DLinearWidth", (long long)p.maxTexture2DLinear[0], attr(cudaDevAttrMaxTexture2DLinearWidth));
    check("maxTexture2DLinear[1] is cudaDevAttrMaxTexture2DLinearHeight", (long long)p.maxTexture2DLinear[1], attr(cudaDevAttrMaxTexture2DLinearHeight));
    check("maxTexture2DLinear[2] is cudaDevAttrMaxTexture2DLinearPitch", (long long)p.maxTexture2DLinear[2], attr(cudaDevAttrMaxTexture2DLinearPitch));
    check("maxTexture2DGather[0] is cudaDevAttrMaxTexture2DGatherWidth", (long long)p.maxTexture2DGather[0], attr(cudaDevAttrMaxTexture2DGatherWidth));
    check("maxTexture2DGather[1] is cudaDevAttrMaxTexture2DGatherHeight", (long long)p.maxTexture2DGather[1], attr(cudaDevAttrMaxTexture2DGatherHeight));
    check("maxTexture3D[0] is cudaDevAttrMaxTexture3DWidth", (long long)p.maxTexture3D[0], attr(cudaDevAttrMaxTexture3DWidth));
    check("maxTexture3D[1] is cudaDevAttrMaxTexture3DHeight", (long long)p.maxTexture3D[1], attr(cudaDevAttrMaxTexture3DHeight));
    check("maxTexture3D[2] is cudaDevAttrMaxTexture3DDepth", (long long)p.maxTexture3D[2], attr(cudaDevAttrMaxTexture3DDepth));
    check("maxTexture3DAlt[0] is cudaDevAttrMaxTexture3DWidthAlt", (long long)p.maxTexture3DAlt[0], attr(cudaDevAttrMaxTexture3DWidthAlt));
    check("maxTexture3DAlt[1] is cudaDevAttrMaxTexture3DHeightAlt", (long long)p.maxTexture3DAlt[1], attr(cudaDevAttrMaxTexture3DHeightAlt));
    check("maxTexture3DAlt[2] is cudaDevAttrMaxTexture3DDepthAlt", (long long)p.maxTexture3DAlt[2], attr(cudaDevAttrMaxTexture3DDepthAlt));
    check("maxTextureCubemap is cudaDevAttrMaxTextureCubemapWidth", (long long)p.maxTextureCubemap, attr(cudaDevAttrMaxTextureCubemapWidth));
    check("maxTexture1DLayered[0] is cudaDevAttrMaxTexture1DLayeredWidth", (long long)p.maxTexture1DLayered[0], attr(cudaDevAttrMaxTexture1DLayeredWidth));
    check("maxTexture1DLayered[1] is cudaDevAttrMaxTexture1DLayeredLayers", (long long)p.maxTexture1DLayered[1], attr(cudaDevAttrMaxTexture1DLayeredLayers));
    check("maxTexture2DLayered[0] is cudaDevAttrMaxTexture2DLayeredWidth", (long long)p.maxTexture2DLayered[0], attr(cudaDevAttrMaxTexture2DLayeredWidth));
    check("maxTexture2DLayered[1] is cudaDevAttrMaxTexture2DLayeredHeight", (long long)p.maxTexture2DLayered[1], attr(cudaDevAttrMaxTexture2DLayeredHeight));
    check("maxTexture2DLayered[2] is cudaDevAttrMaxTexture2DLayeredLayers", (long long)p.maxTexture2DLayered[2], attr(cudaDevAttrMaxTexture2DLayeredLayers));
    check("maxTextureCubemapLayered[0] is cudaDevAttrMaxTextureCubemapLayeredWidth", (long long)p.maxTextureCubemapLayered[0], attr(cudaDevAttrMaxTextureCubemapLayeredWidth));
    check("maxTextureCubemapLayered[1] is cudaDevAttrMaxTextureCubemapLayeredLayers", (long long)p.maxTextureCubemapLayered[1], attr(cudaDevAttrMaxTextureCubemapLayeredLayers));
    check("maxSurface1D is cudaDevAttrMaxSurface1DWidth", (long long)p.maxSurface1D, attr(cudaDevAttrMaxSurface1DWidth));
    check("maxSurface2D[0] is cudaDevAttrMaxSurface2DWidth", (long long)p.maxSurface2D[0], attr(cudaDevAttrMaxSurface2DWidth));
    check("maxSurface2D[1] is cudaDevAttrMaxSurface2DHeight", (long long)p.maxSurface2D[1], attr(cudaDevAttrMaxSurface2DHeight));
    check("maxSurface3D[0] is cudaDevAttrMaxSurface3DWidth", (long long)p.maxSurface3D[0], attr(cudaDevAttrMaxSurface3DWidth));
    check("maxSurface3D[1] is cudaDevAttrMaxSurface3DHeight", (long long)p.maxSurface3D[1], attr(cudaDevAttrMaxSurface3DHeight));
    check("maxSurface3D[2] is cudaDevAttrMaxSurface3DDepth", (long long)p.maxSurface3D[2], attr(cudaDevAttrMaxSurface3DDepth));
    check("maxSurface1DLayered[0] is cudaDevAttrMaxSurface1DLayeredWidth", (long long)p.maxSurface1DLayered[0], attr(cudaDevAttrMaxSurface1DLayeredWidth));
    check("maxSurface1DLayered[1] is cudaDevAttrMaxSurface1DLayeredLayers", (long long)p.maxSurface1DLayered[1], attr(cudaDevAttrMaxSurface1DLayeredLayers));
    check("maxSurface2DLayered[0] is cudaDevAttrMaxSurface2DLayeredWidth", (long long)p.maxSurface2DLayered[0], attr(cudaDevAttrMaxSurface2DLayeredWidth));
    check("maxSurface2DLayered[1] is cudaDevAttrMaxSurface2DLayeredHeight", (long long)p.maxSurface2DLayered[1], attr(cudaDevAttrMaxSurface2DLayeredHeight));
    check("maxSurface2DLayered[2] is cudaDevAttrMaxSurface2DLayeredLayers", (long long)p.maxSurface2DLayered[2], attr(cudaDevAttrMaxSurface2DLayeredLayers));
    check("maxSurfaceCubemap is cudaDevAttrMaxSurfaceCubemapWidth", (long long)p.maxSurfaceCubemap, attr(cudaDevAttrMaxSurfaceCubemapWidth));
    check("maxSurfaceCubemapLayered[0] is cudaDevAttrMaxSurfaceCubemapLayeredWidth", (long long)p.maxSurfaceCubemapLayered[0], attr(cudaDevAttrMaxSurfaceCubemapLayeredWidth));
    check("maxSurfaceCubemapLayered[1] is cudaDevAttrMaxSurfaceCubemapLayeredLayers", (long long)p.maxSurfaceCubemapLayered[1], attr(cudaDevAttrMaxSurfaceCubemapLayeredLayers));
    check("sharedMemPerBlock is cudaDevAttrMaxSharedMemoryPerBlock", (long long)p.sharedMemPerBlock, attr(cudaDevAttrMaxSharedMemoryPerBlock));
    check("sharedMemPerBlockOptin is cudaDevAttrMaxSharedMemoryPerBlockOptin", (long long)p.sharedMemPerBlockOptin, attr(cudaDevAttrMaxSharedMemoryPerBlockOptin));
    check("sharedMemPerMultiprocessor is cudaDevAttrMaxSharedMemoryPerMultiprocessor", (long long)p.sharedMemPerMultiprocessor, attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
    check("reservedSharedMemPerBlock is cudaDevAttrReservedSharedMemoryPerBlock", (long long)p.reservedSharedMemPerBlock, attr(cudaDevAttrReservedSharedMemoryPerBlock));
    check("regsPerBlock is cudaDevAttrMaxRegistersPerBlock", (long long)p.regsPerBlock, attr(cudaDevAttrMaxRegistersPerBlock));
    check("regsPerMultiprocessor is cudaDevAttrMaxRegistersPerMultiprocessor", (long long)p.regsPerMultiprocessor, attr(cudaDevAttrMaxRegistersPerMultiprocessor));
    check("warpSize is cudaDevAttrWarpSize", (long long)p.warpSize, attr(cudaDevAttrWarpSize));
    check("memPitch is cudaDevAttrMaxPitch", (long long)p.memPitch, attr(cudaDevAttrMaxPitch));
    check("maxThreadsPerBlock is cudaDevAttrMaxThreadsPerBlock", (long long)p.maxThreadsPerBlock, attr(cudaDevAttrMaxThreadsPerBlock));
    check("maxThreadsDim[0] is cudaDevAttrMaxBlockDimX", (long long)p.maxThreadsDim[0], attr(cudaDevAttrMaxBlockDimX));
    check("maxThreadsDim[1] is cudaDevAttrMaxBlockDimY", (long long)p.maxThreadsDim[1], attr(cudaDevAttrMaxBlockDimY));
    check("maxThreadsDim[2] is cudaDevAttrMaxBlockDimZ", (long long)p.maxThreadsDim[2], attr(cudaDevAttrMaxBlockDimZ));
    check("maxGridSize[0] is cudaDevAttrMaxGridDimX", (long long)p.maxGridSize[0], attr(cudaDevAttrMaxGridDimX));
    check("maxGridSize[1] is cudaDevAttrMaxGridDimY", (long long)p.maxGridSize[1], attr(cudaDevAttrMaxGridDimY));
    check("maxGridSize[2] is cudaDevAttrMaxGridDimZ", (long long)p.maxGridSize[2], attr(cudaDevAttrMaxGridDimZ));
    check("totalConstMem is cudaDevAttrTotalConstantMemory", (long long)p.totalConstMem, attr(cudaDevAttrTotalConstantMemory));
    check("major is cudaDevAttrComputeCapabilityMajor", (long long)p.major, attr(cudaDevAttrComputeCapabilityMajor));
    check("minor is cudaDevAttrComputeCapabilityMinor", (long long)p.minor, attr(cudaDevAttrComputeCapabilityMinor));
    check("textureAlignment is cudaDevAttrTextureAlignment", (long long)p.textureAlignment, attr(cudaDevAttrTextureAlignment));
    check("texturePitchAlignment is cudaDevAttrTexturePitchAlignment", (long long)p.texturePitchAlignment, attr(cudaDevAttrTexturePitchAlignment));
    check("surfaceAlignment is cudaDevAttrSurfaceAlignment", (long long)p.surfaceAlignment, attr(cudaDevAttrSurfaceAlignment));
    check("multiProcessorCount is cudaDevAttrMultiProcessorCount", (long long)p.multiProcessorCount, attr(cudaDevAttrMultiProcessorCount));
    check("integrated is cudaDevAttrIntegrated", (long long)p.integrated, attr(cudaDevAttrIntegrated));
    check("canMapHostMemory is cudaDevAttrCanMapHostMemory", (long long)p.canMapHostMemory, attr(cudaDevAttrCanMapHostMemory));
    check("concurrentKernels is cudaDevAttrConcurrentKernels", (long long)p.concurrentKernels, attr(cudaDevAttrConcurrentKernels));
    check("ECCEnabled is cudaDevAttrEccEnabled", (long long)p.ECCEnabled, attr(cudaDevAttrEccEnabled));
    check("pciBusID is cudaDevAttrPciBusId", (long long)p.pciBusID, attr(cudaDevAttrPciBusId));
    check("pciDeviceID is cudaDevAttrPciDeviceId", (long long)p.pciDeviceID, attr(cudaDevAttrPciDeviceId));
    check("pciDomainID is cudaDevAttrPciDomainId", (long long)p.pciDomainID, attr(cudaDevAttrPciDomainId));
    check("tccDriver is cudaDevAttrTccDriver", (long long)p.tccDriver, attr(cudaDevAttrTccDriver));
    check("asyncEngineCount is cudaDevAttrAsyncEngineCount", (long long)p.asyncEngineCount, attr(cudaDevAttrAsyncEngineCount));
    check("unifiedAddressing is cudaDevAttrUnifiedAddressing", (long long)p.unifiedAddressing, attr(cudaDevAttrUnifiedAddressing));
    check("memoryBusWidth is cudaDevAttrGlobalMemoryBusWidth", (long long)p.memoryBusWidth, attr(cudaDevAttrGlobalMemoryBusWidth));
    check("l2CacheSize is cudaDevAttrL2CacheSize", (long long)p.l2CacheSize, attr(cudaDevAttrL2CacheSize));
    check("persistingL2CacheMaxSize is cudaDevAttrMaxPersistingL2CacheSize", (long long)p.persistingL2CacheMaxSize, attr(cudaDevAttrMaxPersistingL2CacheSize));
    check("maxThreadsPerMultiProcessor is cudaDevAttrMaxThreadsPerMultiProcessor", (long long)p.maxThreadsPerMultiProcessor, attr(cudaDevAttrMaxThreadsPerMultiProcessor));
    check("streamPrioritiesSupported is cudaDevAttrStreamPrioritiesSupported", (long long)p.streamPrioritiesSupported, attr(cudaDevAttrStreamPrioritiesSupported));
    check("globalL1CacheSupported is cudaDevAttrGlobalL1CacheSupported", (long long)p.globalL1CacheSupported, attr(cudaDevAttrGlobalL1CacheSupported));
    check("localL1CacheSupported is cudaDevAttrLocalL1CacheSupported", (long long)p.localL1CacheSupported, attr(cudaDevAttrLocalL1CacheSupported));
    check("managedMemory is cudaDevAttrManagedMemory", (long long)p.managedMemory, attr(cudaDevAttrManagedMemory));
    check("isMultiGpuBoard is cudaDevAttrIsMultiGpuBoard", (long long)p.isMultiGpuBoard, attr(cudaDevAttrIsMultiGpuBoard));
    check("multiGpuBoardGroupID is cudaDevAttrMultiGpuBoardGroupID", (long long)p.multiGpuBoardGroupID, attr(cudaDevAttrMultiGpuBoardGroupID));
    check("hostNativeAtomicSupported is cudaDevAttrHostNativeAtomicSupported", (long long)p.hostNativeAtomicSupported, attr(cudaDevAttrHostNativeAtomicSupported));
    check("pageableMemoryAccess is cudaDevAttrPageableMemoryAccess", (long long)p.pageableMemoryAccess, attr(cudaDevAttrPageableMemoryAccess));
    check("concurrentManagedAccess is cudaDevAttrConcurrentManagedAccess", (long long)p.concurrentManagedAccess, attr(cudaDevAttrConcurrentManagedAccess));
    check("computePreemptionSupported is cudaDevAttrComputePreemptionSupported", (long long)p.computePreemptionSupported, attr(cudaDevAttrComputePreemptionSupported));
    check("canUseHostPointerForRegisteredMem is cudaDevAttrCanUseHostPointerForRegisteredMem", (long long)p.canUseHostPointerForRegisteredMem, attr(cudaDevAttrCanUseHostPointerForRegisteredMem));
    check("cooperativeLaunch is cudaDevAttrCooperativeLaunch", (long long)p.cooperativeLaunch, attr(cudaDevAttrCooperativeLaunch));
    check("pageableMemoryAccessUsesHostPageTables is cudaDevAttrPageableMemoryAccessUsesHostPageTables", (long long)p.pageableMemoryAccessUsesHostPageTables, attr(cudaDevAttrPageableMemoryAccessUsesHostPageTables));
    check("directManagedMemAccessFromHost is cudaDevAttrDirectManagedMemAccessFromHost", (long long)p.directManagedMemAccessFromHost, attr(cudaDevAttrDirectManagedMemAccessFromHost));
    check("maxBlocksPerMultiProcessor is cudaDevAttrMaxBlocksPerMultiprocessor", (long long)p.maxBlocksPerMultiProcessor, attr(cudaDevAttrMaxBlocksPerMultiprocessor));
    check("accessPolicyMaxWindowSize is cudaDevAttrMaxAccessPolicyWindowSize", (long long)p.accessPolicyMaxWindowSize, attr(cudaDevAttrMaxAccessPolicyWindowSize));
    check("hostRegisterSupported is cudaDevAttrHostRegisterSupported", (long long)p.hostRegisterSupported, attr(cudaDevAttrHostRegisterSupported));
    check("sparseCudaArraySupported is cudaDevAttrSparseCudaArraySupported", (long long)p.sparseCudaArraySupported, attr(cudaDevAttrSparseCudaArraySupported));
    check("hostRegisterReadOnlySupported is cudaDevAttrHostRegisterReadOnlySupported", (long long)p.hostRegisterReadOnlySupported, attr(cudaDevAttrHostRegisterReadOnlySupported));
    check("timelineSemaphoreInteropSupported is cudaDevAttrTimelineSemaphoreInteropSupported", (long long)p.timelineSemaphoreInteropSupported, attr(cudaDevAttrTimelineSemaphoreInteropSupported));
    check("memoryPoolsSupported is cudaDevAttrMemoryPoolsSupported", (long long)p.memoryPoolsSupported, attr(cudaDevAttrMemoryPoolsSupported));
    check("gpuDirectRDMASupported is cudaDevAttrGPUDirectRDMASupported", (long long)p.gpuDirectRDMASupported, attr(cudaDevAttrGPUDirectRDMASupported));
    check("gpuDirectRDMAFlushWritesOptions is cudaDevAttrGPUDirectRDMAFlushWritesOptions", (long long)p.gpuDirectRDMAFlushWritesOptions, attr(cudaDevAttrGPUDirectRDMAFlushWritesOptions));
    check("gpuDirectRDMAWritesOrdering is cudaDevAttrGPUDirectRDMAWritesOrdering", (long long)p.gpuDirectRDMAWritesOrdering, attr(cudaDevAttrGPUDirectRDMAWritesOrdering));
    check("memoryPoolSupportedHandleTypes is cudaDevAttrMemoryPoolSupportedHandleTypes", (long long)p.memoryPoolSupportedHandleTypes, attr(cudaDevAttrMemoryPoolSupportedHandleTypes));
    check("deferredMappingCudaArraySupported is cudaDevAttrDeferredMappingCudaArraySupported", (long long)p.deferredMappingCudaArraySupported, attr(cudaDevAttrDeferredMappingCudaArraySupported));
    check("ipcEventSupported is cudaDevAttrIpcEventSupport", (long long)p.ipcEventSupported, attr(cudaDevAttrIpcEventSupport));
    check("clusterLaunch is cudaDevAttrClusterLaunch", (long long)p.clusterLaunch, attr(cudaDevAttrClusterLaunch));
    check("deviceNumaConfig is cudaDevAttrNumaConfig", (long long)p.deviceNumaConfig, attr(cudaDevAttrNumaConfig));
    check("deviceNumaId is cudaDevAttrNumaId", (long long)p.deviceNumaId, attr(cudaDevAttrNumaId));
    check("mpsEnabled is cudaDevAttrMpsEnabled", (long long)p.mpsEnabled, attr(cudaDevAttrMpsEnabled));
    check("hostNumaId is cudaDevAttrHostNumaId", (long long)p.hostNumaId, attr(cudaDevAttrHostNumaId));
    check("gpuPciDeviceID is cudaDevAttrGpuPciDeviceId", (long long)p.gpuPciDeviceID, attr(cudaDevAttrGpuPciDeviceId));
    check("gpuPciSubsystemID is cudaDevAttrGpuPciSubsystemId", (long long)p.gpuPciSubsystemID, attr(cudaDevAttrGpuPciSubsystemId));
    check("hostNumaMultinodeIpcSupported is cudaDevAttrHostNumaMultinodeIpcSupported", (long long)p.hostNumaMultinodeIpcSupported, attr(cudaDevAttrHostNumaMultinodeIpcSupported));
    int luid = 0;
    for (int i = 0; i < 8; i++) luid |= p.luid[i];
    check("luid is zero", luid, 0);
    check("luidDeviceNodeMask is zero", p.luidDeviceNodeMask, 0);
    return 0;
}
