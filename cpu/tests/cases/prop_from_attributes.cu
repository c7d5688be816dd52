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

/* one property against its attribute */
#define SAME(field, attribute) check(#field " is " #attribute, (long long)p.field, attr(attribute))

int main(void)
{
    struct cudaDeviceProp p;
    check("cudaGetDeviceProperties returns 0", cudaGetDeviceProperties(&p, 0), 0);
    SAME(maxTexture1D, cudaDevAttrMaxTexture1DWidth);
    SAME(maxTexture1DMipmap, cudaDevAttrMaxTexture1DMipmappedWidth);
    SAME(maxTexture2D[0], cudaDevAttrMaxTexture2DWidth);
    SAME(maxTexture2D[1], cudaDevAttrMaxTexture2DHeight);
    SAME(maxTexture2DMipmap[0], cudaDevAttrMaxTexture2DMipmappedWidth);
    SAME(maxTexture2DMipmap[1], cudaDevAttrMaxTexture2DMipmappedHeight);
    SAME(maxTexture2DLinear[0], cudaDevAttrMaxTexture2DLinearWidth);
    SAME(maxTexture2DLinear[1], cudaDevAttrMaxTexture2DLinearHeight);
    SAME(maxTexture2DLinear[2], cudaDevAttrMaxTexture2DLinearPitch);
    SAME(maxTexture2DGather[0], cudaDevAttrMaxTexture2DGatherWidth);
    SAME(maxTexture2DGather[1], cudaDevAttrMaxTexture2DGatherHeight);
    SAME(maxTexture3D[0], cudaDevAttrMaxTexture3DWidth);
    SAME(maxTexture3D[1], cudaDevAttrMaxTexture3DHeight);
    SAME(maxTexture3D[2], cudaDevAttrMaxTexture3DDepth);
    SAME(maxTexture3DAlt[0], cudaDevAttrMaxTexture3DWidthAlt);
    SAME(maxTexture3DAlt[1], cudaDevAttrMaxTexture3DHeightAlt);
    SAME(maxTexture3DAlt[2], cudaDevAttrMaxTexture3DDepthAlt);
    SAME(maxTextureCubemap, cudaDevAttrMaxTextureCubemapWidth);
    SAME(maxTexture1DLayered[0], cudaDevAttrMaxTexture1DLayeredWidth);
    SAME(maxTexture1DLayered[1], cudaDevAttrMaxTexture1DLayeredLayers);
    SAME(maxTexture2DLayered[0], cudaDevAttrMaxTexture2DLayeredWidth);
    SAME(maxTexture2DLayered[1], cudaDevAttrMaxTexture2DLayeredHeight);
    SAME(maxTexture2DLayered[2], cudaDevAttrMaxTexture2DLayeredLayers);
    SAME(maxTextureCubemapLayered[0], cudaDevAttrMaxTextureCubemapLayeredWidth);
    SAME(maxTextureCubemapLayered[1], cudaDevAttrMaxTextureCubemapLayeredLayers);
    SAME(maxSurface1D, cudaDevAttrMaxSurface1DWidth);
    SAME(maxSurface2D[0], cudaDevAttrMaxSurface2DWidth);
    SAME(maxSurface2D[1], cudaDevAttrMaxSurface2DHeight);
    SAME(maxSurface3D[0], cudaDevAttrMaxSurface3DWidth);
    SAME(maxSurface3D[1], cudaDevAttrMaxSurface3DHeight);
    SAME(maxSurface3D[2], cudaDevAttrMaxSurface3DDepth);
    SAME(maxSurface1DLayered[0], cudaDevAttrMaxSurface1DLayeredWidth);
    SAME(maxSurface1DLayered[1], cudaDevAttrMaxSurface1DLayeredLayers);
    SAME(maxSurface2DLayered[0], cudaDevAttrMaxSurface2DLayeredWidth);
    SAME(maxSurface2DLayered[1], cudaDevAttrMaxSurface2DLayeredHeight);
    SAME(maxSurface2DLayered[2], cudaDevAttrMaxSurface2DLayeredLayers);
    SAME(maxSurfaceCubemap, cudaDevAttrMaxSurfaceCubemapWidth);
    SAME(maxSurfaceCubemapLayered[0], cudaDevAttrMaxSurfaceCubemapLayeredWidth);
    SAME(maxSurfaceCubemapLayered[1], cudaDevAttrMaxSurfaceCubemapLayeredLayers);
    SAME(sharedMemPerBlock, cudaDevAttrMaxSharedMemoryPerBlock);
    SAME(sharedMemPerBlockOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin);
    SAME(sharedMemPerMultiprocessor, cudaDevAttrMaxSharedMemoryPerMultiprocessor);
    SAME(reservedSharedMemPerBlock, cudaDevAttrReservedSharedMemoryPerBlock);
    SAME(regsPerBlock, cudaDevAttrMaxRegistersPerBlock);
    SAME(regsPerMultiprocessor, cudaDevAttrMaxRegistersPerMultiprocessor);
    SAME(warpSize, cudaDevAttrWarpSize);
    SAME(memPitch, cudaDevAttrMaxPitch);
    SAME(maxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock);
    SAME(maxThreadsDim[0], cudaDevAttrMaxBlockDimX);
    SAME(maxThreadsDim[1], cudaDevAttrMaxBlockDimY);
    SAME(maxThreadsDim[2], cudaDevAttrMaxBlockDimZ);
    SAME(maxGridSize[0], cudaDevAttrMaxGridDimX);
    SAME(maxGridSize[1], cudaDevAttrMaxGridDimY);
    SAME(maxGridSize[2], cudaDevAttrMaxGridDimZ);
    SAME(totalConstMem, cudaDevAttrTotalConstantMemory);
    SAME(major, cudaDevAttrComputeCapabilityMajor);
    SAME(minor, cudaDevAttrComputeCapabilityMinor);
    SAME(textureAlignment, cudaDevAttrTextureAlignment);
    SAME(texturePitchAlignment, cudaDevAttrTexturePitchAlignment);
    SAME(surfaceAlignment, cudaDevAttrSurfaceAlignment);
    SAME(multiProcessorCount, cudaDevAttrMultiProcessorCount);
    SAME(integrated, cudaDevAttrIntegrated);
    SAME(canMapHostMemory, cudaDevAttrCanMapHostMemory);
    SAME(concurrentKernels, cudaDevAttrConcurrentKernels);
    SAME(ECCEnabled, cudaDevAttrEccEnabled);
    SAME(pciBusID, cudaDevAttrPciBusId);
    SAME(pciDeviceID, cudaDevAttrPciDeviceId);
    SAME(pciDomainID, cudaDevAttrPciDomainId);
    SAME(tccDriver, cudaDevAttrTccDriver);
    SAME(asyncEngineCount, cudaDevAttrAsyncEngineCount);
    SAME(unifiedAddressing, cudaDevAttrUnifiedAddressing);
    SAME(memoryBusWidth, cudaDevAttrGlobalMemoryBusWidth);
    SAME(l2CacheSize, cudaDevAttrL2CacheSize);
    SAME(persistingL2CacheMaxSize, cudaDevAttrMaxPersistingL2CacheSize);
    SAME(maxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor);
    SAME(streamPrioritiesSupported, cudaDevAttrStreamPrioritiesSupported);
    SAME(globalL1CacheSupported, cudaDevAttrGlobalL1CacheSupported);
    SAME(localL1CacheSupported, cudaDevAttrLocalL1CacheSupported);
    SAME(managedMemory, cudaDevAttrManagedMemory);
    SAME(isMultiGpuBoard, cudaDevAttrIsMultiGpuBoard);
    SAME(multiGpuBoardGroupID, cudaDevAttrMultiGpuBoardGroupID);
    SAME(hostNativeAtomicSupported, cudaDevAttrHostNativeAtomicSupported);
    SAME(pageableMemoryAccess, cudaDevAttrPageableMemoryAccess);
    SAME(concurrentManagedAccess, cudaDevAttrConcurrentManagedAccess);
    SAME(computePreemptionSupported, cudaDevAttrComputePreemptionSupported);
    SAME(canUseHostPointerForRegisteredMem, cudaDevAttrCanUseHostPointerForRegisteredMem);
    SAME(cooperativeLaunch, cudaDevAttrCooperativeLaunch);
    SAME(pageableMemoryAccessUsesHostPageTables, cudaDevAttrPageableMemoryAccessUsesHostPageTables);
    SAME(directManagedMemAccessFromHost, cudaDevAttrDirectManagedMemAccessFromHost);
    SAME(maxBlocksPerMultiProcessor, cudaDevAttrMaxBlocksPerMultiprocessor);
    SAME(accessPolicyMaxWindowSize, cudaDevAttrMaxAccessPolicyWindowSize);
    SAME(hostRegisterSupported, cudaDevAttrHostRegisterSupported);
    SAME(sparseCudaArraySupported, cudaDevAttrSparseCudaArraySupported);
    SAME(hostRegisterReadOnlySupported, cudaDevAttrHostRegisterReadOnlySupported);
    SAME(timelineSemaphoreInteropSupported, cudaDevAttrTimelineSemaphoreInteropSupported);
    SAME(memoryPoolsSupported, cudaDevAttrMemoryPoolsSupported);
    SAME(gpuDirectRDMASupported, cudaDevAttrGPUDirectRDMASupported);
    SAME(gpuDirectRDMAFlushWritesOptions, cudaDevAttrGPUDirectRDMAFlushWritesOptions);
    SAME(gpuDirectRDMAWritesOrdering, cudaDevAttrGPUDirectRDMAWritesOrdering);
    SAME(memoryPoolSupportedHandleTypes, cudaDevAttrMemoryPoolSupportedHandleTypes);
    SAME(deferredMappingCudaArraySupported, cudaDevAttrDeferredMappingCudaArraySupported);
    SAME(ipcEventSupported, cudaDevAttrIpcEventSupport);
    SAME(clusterLaunch, cudaDevAttrClusterLaunch);
    SAME(deviceNumaConfig, cudaDevAttrNumaConfig);
    SAME(deviceNumaId, cudaDevAttrNumaId);
    SAME(mpsEnabled, cudaDevAttrMpsEnabled);
    SAME(hostNumaId, cudaDevAttrHostNumaId);
    SAME(gpuPciDeviceID, cudaDevAttrGpuPciDeviceId);
    SAME(gpuPciSubsystemID, cudaDevAttrGpuPciSubsystemId);
    SAME(hostNumaMultinodeIpcSupported, cudaDevAttrHostNumaMultinodeIpcSupported);
    int luid = 0;
    for (int i = 0; i < 8; i++) luid |= p.luid[i];
    check("luid is zero", luid, 0);
    check("luidDeviceNodeMask is zero", p.luidDeviceNodeMask, 0);
    return 0;
}
