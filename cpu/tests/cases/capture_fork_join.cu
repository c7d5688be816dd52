// fact: Stream capture across streams: an event recorded in the capturing stream and waited for by a second
// stream forks it into the capture; the second stream's event waited for by the first joins it back. The graph
// is a diamond (4 nodes, 4 edges, 1 root), and each launch runs it whole. A fork never joined back makes
// cudaStreamEndCapture fail with 904 and no graph; an event recorded in a capture cannot be queried (907).
#include "check.h"

__global__ void set(int *a, int v) { a[threadIdx.x] = v; }
__global__ void add_from(int *dst, const int *src) { dst[threadIdx.x] += src[threadIdx.x]; }
__global__ void mul(int *a, int k) { a[threadIdx.x] *= k; }

int main(void)
{
    int *a, *b, h[32];
    cudaMalloc(&a, 32 * sizeof(int));
    cudaMalloc(&b, 32 * sizeof(int));
    cudaStream_t s1, s2;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
    cudaEvent_t forked, joined;
    cudaEventCreate(&forked);
    cudaEventCreate(&joined);

    check("cudaStreamBeginCapture returns 0", cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), 0);
    set<<<1, 32, 0, s1>>>(a, 1);                  /* A */
    check("cudaEventRecord in the capture returns 0", cudaEventRecord(forked, s1), 0);
    check("cudaStreamWaitEvent (fork) returns 0", cudaStreamWaitEvent(s2, forked, 0), 0);
    enum cudaStreamCaptureStatus st;
    cudaStreamIsCapturing(s2, &st);
    check("the second stream now captures too", st, cudaStreamCaptureStatusActive);
    set<<<1, 32, 0, s2>>>(b, 10);                 /* B, after A */
    mul<<<1, 32, 0, s1>>>(a, 3);                  /* C, after A */
    cudaEventRecord(joined, s2);
    check("cudaStreamWaitEvent (join) returns 0", cudaStreamWaitEvent(s1, joined, 0), 0);
    add_from<<<1, 32, 0, s1>>>(a, b);             /* D, after B and C */
    cudaGraph_t g = NULL;
    check("cudaStreamEndCapture returns 0", cudaStreamEndCapture(s1, &g), 0);
    cudaStreamIsCapturing(s2, &st);
    check("the second stream's capture ended with it", st, cudaStreamCaptureStatusNone);
    size_t nodes = 0, edges = 0, roots = 0;
    cudaGraphGetNodes(g, NULL, &nodes);
    cudaGraphGetEdges(g, NULL, NULL, NULL, &edges);
    cudaGraphGetRootNodes(g, NULL, &roots);
    check("4 nodes", nodes, 4);
    check("4 edges", edges, 4);
    check("1 root", roots, 1);
    cudaGraphExec_t x;
    check("cudaGraphInstantiate returns 0", cudaGraphInstantiate(&x, g, 0), 0);
    cudaMemset(a, 0, 32 * sizeof(int));
    cudaDeviceSynchronize();
    cudaGraphLaunch(x, s2);
    cudaGraphLaunch(x, s2);
    check("cudaStreamSynchronize returns 0", cudaStreamSynchronize(s2), 0);
    cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
    check("a = 1 * 3 + 10 after each launch", h[0] + h[31], 26);

    /* a fork that is not joined back */
    check("cudaStreamBeginCapture returns 0", cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), 0);
    set<<<1, 32, 0, s1>>>(a, 1);
    cudaEventRecord(forked, s1);
    cudaStreamWaitEvent(s2, forked, 0);
    set<<<1, 32, 0, s2>>>(b, 2);
    cudaGraph_t g2 = (cudaGraph_t)&g2;
    check("cudaStreamEndCapture with unjoined work returns 904", cudaStreamEndCapture(s1, &g2), 904);
    check("... and no graph", g2 == NULL, 1);
    cudaStreamIsCapturing(s2, &st);
    check("... the second stream's capture ended", st, cudaStreamCaptureStatusNone);
    cudaGetLastError();

    /* an event recorded in a capture */
    cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
    set<<<1, 32, 0, s1>>>(a, 1);
    cudaEventRecord(forked, s1);
    check("cudaEventQuery of an event recorded in the capture returns 907", cudaEventQuery(forked), 907);
    cudaStreamEndCapture(s1, &g2);
    if (g2) cudaGraphDestroy(g2);
    cudaGetLastError();

    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
    cudaEventDestroy(forked);
    cudaEventDestroy(joined);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaFree(a);
    cudaFree(b);
    check("no error", cudaGetLastError(), 0);
    return 0;
}
