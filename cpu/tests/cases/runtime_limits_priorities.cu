// runtime: stream priorities (cudaDeviceGetStreamPriorityRange, priorities clamped into it), the device's
// limits (cudaDeviceGetLimit defaults, cudaDeviceSetLimit), cudaStreamAttachMemAsync's checks and the graph
// memory attributes (cuda-samples' StreamPriorities, newdelete, UnifiedMemoryStreams, graphMemoryFootprint).
#include "check.h"

int main(void)
{
    int least = 1, greatest = 1, p = 1;
    check("priority range", cudaDeviceGetStreamPriorityRange(&least, &greatest), cudaSuccess);
    check("least priority", least, 0);
    check("greatest priority", greatest, -5);
    cudaStream_t high, low;
    cudaStreamCreateWithPriority(&high, cudaStreamNonBlocking, -100);
    cudaStreamCreateWithPriority(&low, cudaStreamNonBlocking, 7);
    cudaStreamGetPriority(high, &p);
    check("a priority above the range is clamped to the greatest", p, -5);
    cudaStreamGetPriority(low, &p);
    check("a priority below the range is clamped to the least", p, 0);
    cudaStreamGetPriority(0, &p);
    check("the default stream's priority", p, 0);

    size_t v = 0;
    cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
    check("default malloc heap: 8 MiB", (long long)v, 8 << 20);
    cudaDeviceGetLimit(&v, cudaLimitStackSize);
    check("default stack: 1 KiB a thread", (long long)v, 1024);
    cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize);
    check("default printf buffer: 1 MiB", (long long)v, 1 << 20);
    check("set the heap to 128 MiB", cudaDeviceSetLimit(cudaLimitMallocHeapSize, 128 << 20), cudaSuccess);
    cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
    check("the heap reads back", (long long)v, 128 << 20);
    check("no such limit", cudaDeviceGetLimit(&v, (cudaLimit)99), cudaErrorUnsupportedLimit);

    float *managed = NULL, *device = NULL;
    cudaMallocManaged(&managed, 4096);
    cudaMalloc(&device, 4096);
    check("attach managed memory to a stream", cudaStreamAttachMemAsync(high, managed), cudaSuccess);
    check("attach it to the host, whole", cudaStreamAttachMemAsync(high, managed, 4096, cudaMemAttachHost),
          cudaSuccess);
    check("only part of it", cudaStreamAttachMemAsync(high, managed, 1024, cudaMemAttachHost), cudaErrorInvalidValue);
    check("device memory", cudaStreamAttachMemAsync(high, device, 0, cudaMemAttachGlobal), cudaErrorInvalidValue);
    check("an unknown flag", cudaStreamAttachMemAsync(high, managed, 0, 3), cudaErrorInvalidValue);
    check("after the checks", cudaStreamSynchronize(high), cudaSuccess);
    cudaGetLastError();

    unsigned long long bytes = 1;
    check("graph memory in use", cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &bytes), 0);
    check("none before any graph", (long long)bytes, 0);
    cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &bytes);
    check("none reserved either", (long long)bytes, 0);
    check("another device", cudaDeviceGetGraphMemAttribute(1, cudaGraphMemAttrUsedMemHigh, &bytes),
          cudaErrorInvalidDevice);
    bytes = 0;
    check("reset the high mark", cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &bytes), 0);
    check("the current use cannot be set",
          cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &bytes), cudaErrorInvalidValue);
    bytes = 5;
    check("a high mark only to 0", cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &bytes),
          cudaErrorInvalidValue);
    cudaFree(managed);
    cudaFree(device);
    cudaStreamDestroy(high);
    cudaStreamDestroy(low);
    return 0;
}
