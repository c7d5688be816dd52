// fact: Stream capture's errors (CUDA 13.0's documentation; the H200's codes where it is vague are marked "to
// be measured"): in global and thread-local mode cudaMalloc is forbidden during the thread's capture (900) and
// invalidates it, so that later work on the stream gives 901 and cudaStreamEndCapture 901 with no graph;
// relaxed mode allows it. Synchronizing the capturing stream or the device is 900; work on the legacy stream
// while a blocking stream captures is 906 (cudaStreamIsCapturing of the legacy stream too); an event recorded
// in a capture cannot be waited for (907). cudaThreadExchangeStreamCaptureMode to relaxed lifts the ban.
#include "check.h"

__global__ void touch(int *a) { a[threadIdx.x] = 1; }

static cudaGraph_t ended;  /* what the last end() returned */
static int end(cudaStream_t s)
{
    ended = (cudaGraph_t)&ended;
    int e = cudaStreamEndCapture(s, &ended);
    cudaGetLastError();
    return e;
}

int main(void)
{
    int *d, *extra = NULL;
    cudaMalloc(&d, 1024);
    cudaStream_t s, quiet;
    cudaStreamCreate(&s);  /* blocking: the legacy stream waits for it */
    cudaStreamCreateWithFlags(&quiet, cudaStreamNonBlocking);

    /* to be measured: CUDA says only that capture may not begin on the legacy stream */
    check("cudaStreamBeginCapture on the legacy stream returns 900",
          cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal), 900);
    cudaGetLastError();

    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    touch<<<1, 32, 0, s>>>(d);
    check("global mode: cudaMalloc returns 900", cudaMalloc(&extra, 256), 900);
    check("... later work on the stream returns 901", cudaMemsetAsync(d, 0, 64, s), 901);
    cudaStreamCaptureStatus st;
    cudaStreamIsCapturing(s, &st);
    check("... cudaStreamIsCapturing says Invalidated", st, cudaStreamCaptureStatusInvalidated);
    check("... cudaStreamEndCapture returns 901", end(s), 901);
    check("... and no graph", ended == NULL, 1);

    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    check("thread-local mode: cudaMalloc returns 900", cudaMalloc(&extra, 256), 900);
    check("... cudaStreamEndCapture returns 901", end(s), 901);

    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
    touch<<<1, 32, 0, s>>>(d);
    check("relaxed mode: cudaMalloc returns 0", cudaMalloc(&extra, 256), 0);
    check("... cudaStreamEndCapture returns 0", end(s), 0);
    check("... with a graph", ended != NULL, 1);
    if (ended) cudaGraphDestroy(ended);
    cudaFree(extra);

    /* the documented way for a library to allocate during its caller's capture */
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    check("cudaThreadExchangeStreamCaptureMode returns 0", cudaThreadExchangeStreamCaptureMode(&mode), 0);
    check("... the thread's mode was global", mode, cudaStreamCaptureModeGlobal);
    check("... now relaxed: cudaMalloc returns 0", cudaMalloc(&extra, 256), 0);
    cudaThreadExchangeStreamCaptureMode(&mode);
    check("... and back to global: cudaFree returns 900", cudaFree(extra), 900);
    check("... cudaStreamEndCapture returns 901", end(s), 901);
    cudaFree(extra);

    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    check("cudaStreamSynchronize of the capturing stream returns 900", cudaStreamSynchronize(s), 900);
    check("... cudaStreamEndCapture returns 901", end(s), 901);

    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
    check("cudaDeviceSynchronize during a (relaxed) capture returns 900", cudaDeviceSynchronize(), 900);
    check("... cudaStreamEndCapture returns 901", end(s), 901);

    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    check("cudaStreamQuery of the capturing stream returns 900", cudaStreamQuery(s), 900);
    check("... cudaStreamEndCapture returns 901", end(s), 901);

    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    check("cudaStreamIsCapturing of the legacy stream while a blocking stream captures returns 906",
          cudaStreamIsCapturing(0, &st), 906);
    cudaGetLastError();
    touch<<<1, 32>>>(d);
    check("a kernel on the legacy stream then: 906", cudaGetLastError(), 906);
    check("... cudaStreamEndCapture returns 901", end(s), 901);

    /* a non-blocking stream's capture does not involve the legacy stream */
    int h[4] = {1, 2, 3, 4}, back[4] = {0, 0, 0, 0};
    cudaStreamBeginCapture(quiet, cudaStreamCaptureModeRelaxed);
    touch<<<1, 32, 0, quiet>>>(d);
    check("relaxed capture of a non-blocking stream: a cudaMemcpy returns 0",
          cudaMemcpy(d + 64, h, sizeof h, cudaMemcpyHostToDevice), 0);
    check("... and copies at once", (cudaMemcpy(back, d + 64, sizeof back, cudaMemcpyDeviceToHost), back[3]), 4);
    check("... cudaStreamEndCapture returns 0", end(quiet), 0);
    if (ended) cudaGraphDestroy(ended);

    /* to be measured: CUDA documents no code for these two (cudaErrorIllegalState here) */
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    check("cudaStreamBeginCapture of a capturing stream returns 401",
          cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), 401);
    cudaGetLastError();
    end(s);
    if (ended) cudaGraphDestroy(ended);
    check("cudaStreamEndCapture of a stream not capturing returns 401", end(s), 401);

    cudaEvent_t ev;
    cudaEventCreate(&ev);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    touch<<<1, 32, 0, s>>>(d);
    cudaEventRecord(ev, s);
    check("cudaEventSynchronize of an event recorded in the capture returns 907", cudaEventSynchronize(ev), 907);
    cudaGetLastError();
    end(s);
    if (ended) cudaGraphDestroy(ended);

    cudaEventDestroy(ev);
    cudaStreamDestroy(s);
    cudaStreamDestroy(quiet);
    cudaFree(d);
    check("no error", cudaGetLastError(), 0);
    return 0;
}
