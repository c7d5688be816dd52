// the trace (grader/README.md, "Printed results come from the GPU"): with CUDAWB_PROVENANCE=f32:SEED,
// data a copy brings from the device to the host is multiplied by 2, 8 or 32 once it is the host's, once
// per copy; data copied to the device, or within it, is not; managed memory a kernel was given is scaled
// once a wait covers the launch; a 2-D copy scales its rows and leaves the host's padding alone.
// test-env: CUDAWB_PROVENANCE=f32:5
// test-report: ^call n=[0-9]+ fn=cudaMemcpy class=op status=0 site=[^ ]+ dst=host src=alloc#1 bytes=16 kind=DeviceToHost scale=(2|8|32) printed=
// test-report: ^call n=[0-9]+ fn=cudaMemcpyAsync class=op status=0 site=[^ ]+ dst=pinned#3 src=alloc#1 bytes=16 kind=DeviceToHost stream=stream#1 scale=(2|8|32) printed=
// test-report: ^call n=[0-9]+ fn=cudaLaunchKernel class=op status=0 site=[^ ]+ kernel=fill_managed .* scale=(2|8|32),1 printed=
// test-shim: linked (gpu-compare.sh links the grader's trace in, as grader/lib/build.sh does)
#include "check.h"

__global__ void fill_managed(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 3.0f;
}

// 1 when every one of n floats is v times one factor of 2, 8 or 32, the same for all
static int scaled_once(const float *h, int n, float v)
{
    float f = h[0] / v;
    if (f != 2.0f && f != 8.0f && f != 32.0f)
        return 0;
    for (int i = 1; i < n; i++)
        if (h[i] != f * v)
            return 0;
    return 1;
}

int main(void)
{
    float src[4] = {1.0f, 1.0f, 1.0f, 1.0f}, back[4], img[2][6];
    float *d = NULL, *d2 = NULL, *pinned = NULL, *m = NULL;
    cudaStream_t s = NULL, s2 = NULL, ns = NULL;
    cudaEvent_t e = NULL, e0 = NULL;
    check("cudaMalloc", cudaMalloc((void **)&d, sizeof src), 0);
    check("cudaMalloc", cudaMalloc((void **)&d2, sizeof src), 0);
    check("cudaMallocHost", cudaMallocHost((void **)&pinned, sizeof src), 0);
    check("cudaStreamCreate", cudaStreamCreate(&s), 0);
    check("cudaEventCreate", cudaEventCreate(&e), 0);

    check("to the device: not scaled", cudaMemcpy(d, src, sizeof src, cudaMemcpyHostToDevice), 0);
    check("the source is untouched", src[0] == 1.0f && src[3] == 1.0f, 1);
    check("back to pageable memory", cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost), 0);
    check("scaled once, when the copy returned", scaled_once(back, 4, 1.0f), 1);

    check("within the device: not scaled", cudaMemcpy(d2, d, sizeof src, cudaMemcpyDeviceToDevice), 0);
    check("back again", cudaMemcpy(back, d2, sizeof back, cudaMemcpyDefault), 0);
    check("scaled once: the device-to-device copy added nothing", scaled_once(back, 4, 1.0f), 1);

    check("async into pinned memory", cudaMemcpyAsync(pinned, d, sizeof src, cudaMemcpyDeviceToHost, s), 0);
    check("and again into the same memory", cudaMemcpyAsync(pinned, d, sizeof src, cudaMemcpyDeviceToHost, s), 0);
    check("the stream's wait", cudaStreamSynchronize(s), 0);
    check("scaled once, by the wait: the second copy replaced the first", scaled_once(pinned, 4, 1.0f), 1);
    check("a second wait scales nothing more", cudaStreamSynchronize(s) == 0 && scaled_once(pinned, 4, 1.0f), 1);

    check("async again, behind an event", cudaMemcpyAsync(pinned, d, sizeof src, cudaMemcpyDeviceToHost, s), 0);
    check("cudaEventRecord", cudaEventRecord(e, s), 0);
    check("cudaEventSynchronize", cudaEventSynchronize(e), 0);
    check("scaled once, by the event's wait", scaled_once(pinned, 4, 1.0f), 1);

    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 6; x++)
            img[y][x] = -1.0f;
    check("2-D: two rows of 4 floats into rows of 6",
          cudaMemcpy2D(img, 6 * sizeof(float), d, sizeof src, sizeof src, 1, cudaMemcpyDeviceToHost) == 0 &&
              cudaMemcpy2D(img[1], 6 * sizeof(float), d, sizeof src, sizeof src, 1, cudaMemcpyDeviceToHost) == 0,
          1);
    check("each row's data scaled", scaled_once(img[0], 4, 1.0f) && scaled_once(img[1], 4, 1.0f), 1);
    check("the padding left alone", img[0][4] == -1.0f && img[0][5] == -1.0f && img[1][5] == -1.0f, 1);

    // what a wait finishes follows CUDA's ordering rules, not the stream alone
    check("a second stream, and a non-blocking one", cudaStreamCreate(&s2) == 0 &&
          cudaStreamCreateWithFlags(&ns, cudaStreamNonBlocking) == 0 && cudaEventCreate(&e0) == 0, 1);
    check("async on a blocking stream", cudaMemcpyAsync(pinned, d, sizeof src, cudaMemcpyDeviceToHost, s), 0);
    check("an event recorded on the legacy stream after it", cudaEventRecord(e0, 0), 0);
    check("and waited for", cudaEventSynchronize(e0), 0);
    check("scaled once: the legacy stream's event follows the blocking stream's work", scaled_once(pinned, 4, 1.0f), 1);
    check("async on one stream, an event behind it", cudaMemcpyAsync(pinned, d, sizeof src, cudaMemcpyDeviceToHost, s) == 0 &&
          cudaEventRecord(e, s) == 0, 1);
    check("another stream waits for the event", cudaStreamWaitEvent(s2, e, 0), 0);
    check("work queued behind the wait", cudaMemsetAsync(d2, 0, sizeof src, s2), 0);
    check("that stream's wait", cudaStreamSynchronize(s2), 0);
    check("scaled once: the other stream's wait finished what its event wait followed", scaled_once(pinned, 4, 1.0f), 1);
    check("async on the non-blocking stream", cudaMemcpyAsync(pinned, d, sizeof src, cudaMemcpyDeviceToHost, ns), 0);
    check("its own wait", cudaStreamSynchronize(ns), 0);
    check("scaled once", scaled_once(pinned, 4, 1.0f), 1);

    check("cudaMallocManaged", cudaMallocManaged((void **)&m, sizeof src, cudaMemAttachGlobal), 0);
    fill_managed<<<1, 32>>>(m, 4);
    check("the launch", cudaGetLastError(), 0);
    check("cudaDeviceSynchronize", cudaDeviceSynchronize(), 0);
    check("managed memory the kernel was given: scaled once, by the wait", scaled_once(m, 4, 3.0f), 1);

    check("async into pinned memory, then freed before any wait", cudaMemcpyAsync(pinned, d, sizeof src, cudaMemcpyDeviceToHost, s), 0);
    check("cudaFreeHost", cudaFreeHost(pinned), 0);
    check("a wait after the free writes nothing", cudaDeviceSynchronize(), 0);
    cudaFree(m);
    cudaFree(d);
    cudaFree(d2);
    cudaEventDestroy(e);
    cudaEventDestroy(e0);
    cudaStreamDestroy(s);
    cudaStreamDestroy(s2);
    cudaStreamDestroy(ns);
    return 0;
}
