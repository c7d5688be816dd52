// fact: Stream capture: a kernel, an async copy and a host function issued to a capturing stream do not run;
// they become a graph of 3 nodes in a chain, and the graph launched 3 times does their work 3 times, in order.
#include "check.h"

__global__ void add(int *a, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += k;
}

static int calls;
static int seen_at_call[3];
static int *host_copy;

static void CUDART_CB count_call(void *)
{
    if (calls < 3) seen_at_call[calls] = host_copy[7];  /* the copy before it has completed */
    calls++;
}

int main(void)
{
    const int n = 1000;
    int *d, *h;
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMalloc(&d, n * sizeof(int));
    cudaMallocHost(&h, n * sizeof(int));
    host_copy = h;
    for (int i = 0; i < n; i++) h[i] = i;
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    for (int i = 0; i < n; i++) h[i] = -1;

    enum cudaStreamCaptureStatus st;
    check("cudaStreamIsCapturing before: 0", cudaStreamIsCapturing(s, &st), 0);
    check("... status None", st, cudaStreamCaptureStatusNone);
    check("cudaStreamBeginCapture (global mode) returns 0", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), 0);
    check("cudaStreamIsCapturing during: 0", cudaStreamIsCapturing(s, &st), 0);
    check("... status Active", st, cudaStreamCaptureStatusActive);
    add<<<(n + 255) / 256, 256, 0, s>>>(d, n, 5);
    check("the captured launch returns no error", cudaGetLastError(), 0);
    unsigned long long id = 0;
    cudaGraph_t during = NULL;
    const cudaGraphNode_t *deps = NULL;
    size_t ndeps = 99;
    check("cudaStreamGetCaptureInfo returns 0",
          cudaStreamGetCaptureInfo(s, &st, &id, &during, &deps, NULL, &ndeps), 0);
    check("... status Active", st, cudaStreamCaptureStatusActive);
    check("... a capture id", id != 0, 1);
    check("... the graph being built", during != NULL, 1);
    check("... one dependency (the kernel node)", ndeps, 1);
    check("cudaMemcpyAsync into the capture returns 0",
          cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s), 0);
    check("cudaLaunchHostFunc into the capture returns 0", cudaLaunchHostFunc(s, count_call, NULL), 0);
    cudaGraph_t g = NULL;
    check("cudaStreamEndCapture returns 0", cudaStreamEndCapture(s, &g), 0);
    check("... the same graph", g == during, 1);
    check("cudaStreamIsCapturing after: None", (cudaStreamIsCapturing(s, &st), st), cudaStreamCaptureStatusNone);
    check("nothing ran: the host copy is untouched", h[7], -1);
    check("nothing ran: the host function was not called", calls, 0);

    size_t count = 0;
    check("cudaGraphGetNodes (count) returns 0", cudaGraphGetNodes(g, NULL, &count), 0);
    check("the graph has 3 nodes", count, 3);
    cudaGraphNode_t nodes[3];
    cudaGraphGetNodes(g, nodes, &count);
    int kinds[16] = {0};
    for (size_t i = 0; i < count; i++) {
        enum cudaGraphNodeType t;
        cudaGraphNodeGetType(nodes[i], &t);
        kinds[t]++;
    }
    check("one kernel node", kinds[cudaGraphNodeTypeKernel], 1);
    check("one memcpy node", kinds[cudaGraphNodeTypeMemcpy], 1);
    check("one host node", kinds[cudaGraphNodeTypeHost], 1);
    size_t edges = 0, roots = 0;
    cudaGraphGetEdges(g, NULL, NULL, NULL, &edges);
    cudaGraphGetRootNodes(g, NULL, &roots);
    check("2 edges (a chain)", edges, 2);
    check("1 root", roots, 1);

    cudaGraphExec_t x;
    check("cudaGraphInstantiate returns 0", cudaGraphInstantiate(&x, g, 0), 0);
    for (int k = 0; k < 3; k++) check("cudaGraphLaunch returns 0", cudaGraphLaunch(x, s), 0);
    check("cudaStreamSynchronize returns 0", cudaStreamSynchronize(s), 0);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[i] != i + 15;
    check("3 launches added 5 three times, copied back", bad, 0);
    check("the host function ran 3 times", calls, 3);
    check("... each after its launch's copy", seen_at_call[0] * 10000 + seen_at_call[1] * 100 + seen_at_call[2],
          12 * 10000 + 17 * 100 + 22);
    check("cudaGraphExecDestroy returns 0", cudaGraphExecDestroy(x), 0);
    check("cudaGraphDestroy returns 0", cudaGraphDestroy(g), 0);
    cudaStreamDestroy(s);
    cudaFree(d);
    cudaFreeHost(h);
    check("no error", cudaGetLastError(), 0);
    return 0;
}
