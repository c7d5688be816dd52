// device.cpp: the one simulated device: its properties and attributes, cudaSetDevice, cudaDeviceReset.
#include "internal.h"
#include <string.h>
#include <unistd.h>

using namespace rt;

cudaError_t cudaGetDeviceCount(int *count) {
    init();
    if (!count) return fail("cudaGetDeviceCount", cudaErrorInvalidValue);
    *count = cfg.no_device ? 0 : 1;
    return cfg.no_device ? fail("cudaGetDeviceCount", cudaErrorNoDevice) : cudaSuccess;
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

cudaError_t cudaDriverGetVersion(int *version) {
    if (!version) return fail("cudaDriverGetVersion", cudaErrorInvalidValue);
    *version = 13000;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *version) {
    if (!version) return fail("cudaRuntimeGetVersion", cudaErrorInvalidValue);
    *version = CUDART_VERSION;
    return cudaSuccess;
}

// Limits are the H200's (they decide which launches fail); sizes and counts are this machine's.
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device) {
    if (cudaError_t e = enter("cudaGetDeviceProperties")) return e;
    if (!p) return fail("cudaGetDeviceProperties", cudaErrorInvalidValue);
    if (device != 0) return fail("cudaGetDeviceProperties", cudaErrorInvalidDevice);
    memset(p, 0, sizeof *p);
    strcpy(p->name, "CUDA Memory Workbook CPU backend");
    p->totalGlobalMem = cfg.capacity;
    p->sharedMemPerBlock = 48 * 1024;
    p->sharedMemPerBlockOptin = 232448;
    p->sharedMemPerMultiprocessor = 233472;
    p->reservedSharedMemPerBlock = 1024;
    p->regsPerBlock = p->regsPerMultiprocessor = 65536;
    p->warpSize = 32;
    p->memPitch = 2147483647;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->totalConstMem = 65536;
    p->major = 9;
    p->minor = 0;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = cfg.threads;
    p->canMapHostMemory = p->concurrentKernels = p->unifiedAddressing = p->managedMemory = 1;
    p->concurrentManagedAccess = p->hostNativeAtomicSupported = p->cooperativeLaunch = 1;
    p->asyncEngineCount = 2;
    p->memoryBusWidth = 6144;
    p->l2CacheSize = 60 * 1024 * 1024;
    p->maxThreadsPerMultiProcessor = 2048;
    p->maxBlocksPerMultiProcessor = 32;
    p->globalL1CacheSupported = p->localL1CacheSupported = 1;
    p->memoryPoolsSupported = 1;
    p->deviceNumaId = p->hostNumaId = -1;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
    if (cudaError_t e = enter("cudaDeviceGetAttribute")) return e;
    if (!value) return fail("cudaDeviceGetAttribute", cudaErrorInvalidValue);
    if (device != 0) return fail("cudaDeviceGetAttribute", cudaErrorInvalidDevice);
    struct cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    int v;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: v = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: v = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: v = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: v = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: v = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: v = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: v = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: v = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: v = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: v = 32; break;
    case cudaDevAttrMaxPitch: v = (int)p.memPitch; break;
    case cudaDevAttrMaxRegistersPerBlock: v = p.regsPerBlock; break;
    case cudaDevAttrClockRate: v = 1980000; break;
    case cudaDevAttrTextureAlignment: v = (int)p.textureAlignment; break;
    case cudaDevAttrMultiProcessorCount: v = p.multiProcessorCount; break;
    case cudaDevAttrMemoryClockRate: v = 2619000; break;
    case cudaDevAttrGlobalMemoryBusWidth: v = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: v = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: v = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: v = p.asyncEngineCount; break;
    case cudaDevAttrTexturePitchAlignment: v = (int)p.texturePitchAlignment; break;
    case cudaDevAttrComputeCapabilityMajor: v = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: v = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: v = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrPageableMemoryAccess: v = 0; break;
    case cudaDevAttrEccEnabled: v = 1; break;
    case cudaDevAttrPciBusId: v = 0; break;
    default: v = 1; break;  // the remaining yes/no capabilities
    }
    *value = v;
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
