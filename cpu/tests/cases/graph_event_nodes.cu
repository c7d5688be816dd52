// fact: Graph event nodes (CUDA 13.0's documentation): an event record node records its event when the graph
// runs, so cudaEventSynchronize after cudaGraphLaunch waits for the work before it; an event wait node makes
// the launch wait for the event's latest record (here a kernel on another stream, issued before the launch).
// Get/SetEvent read and change the node's event (the next instantiation's), cudaGraphExec*NodeSetEvent the
// executable graph's. Captured, cudaEventRecordWithFlags(..., cudaEventRecordExternal) and
// cudaStreamWaitEvent(..., cudaEventWaitExternal) become event record and wait nodes.
// Run latest-issued first (CUDA promises no more), so that a launch not waiting for the side stream fails.
// test-env: CUDAWB_SCHEDULE=reverse
#include "check.h"

__global__ void fill(int *a, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = v;
}
__global__ void add(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] += in[i];
}

static int count_equal(const int *h, int n, int v)
{
    int c = 0;
    for (int i = 0; i < n; i++) c += h[i] == v;
    return c;
}

int main(void)
{
    const int n = 1000;
    int *in, *out, *h;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMemset(out, 0, n * sizeof(int));
    cudaMallocHost(&h, n * sizeof(int));
    cudaDeviceSynchronize();  // the memset, on the legacy stream, before the non-blocking streams' work
    cudaStream_t s, side;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    cudaEvent_t done, ready, other;
    cudaEventCreate(&done);
    cudaEventCreate(&ready);
    cudaEventCreate(&other);

    // wait(ready) -> add(in, out) -> record(done)
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    cudaGraphNode_t wait, k, rec;
    check("cudaGraphAddEventWaitNode returns 0", cudaGraphAddEventWaitNode(&wait, g, NULL, 0, ready), 0);
    int nn = n;
    void *args[] = {&in, &out, &nn};
    struct cudaKernelNodeParams kp = {};
    kp.func = (void *)add;
    kp.gridDim = dim3((n + 255) / 256);
    kp.blockDim = dim3(256);
    kp.kernelParams = args;
    cudaGraphAddKernelNode(&k, g, &wait, 1, &kp);
    check("cudaGraphAddEventRecordNode returns 0", cudaGraphAddEventRecordNode(&rec, g, &k, 1, done), 0);
    enum cudaGraphNodeType t;
    cudaGraphNodeGetType(rec, &t);
    check("the record node's type is cudaGraphNodeTypeEventRecord", t, cudaGraphNodeTypeEventRecord);
    cudaGraphNodeGetType(wait, &t);
    check("the wait node's type is cudaGraphNodeTypeWaitEvent", t, cudaGraphNodeTypeWaitEvent);
    cudaEvent_t got = NULL;
    check("cudaGraphEventRecordNodeGetEvent returns 0", cudaGraphEventRecordNodeGetEvent(rec, &got), 0);
    check("... and the node's event", got == done, 1);
    cudaGraphEventWaitNodeGetEvent(wait, &got);
    check("cudaGraphEventWaitNodeGetEvent answers the wait node's event", got == ready, 1);
    check("GetEvent of a wait node as a record node returns 1", cudaGraphEventRecordNodeGetEvent(wait, &got), 1);

    cudaGraphExec_t x;
    check("cudaGraphInstantiate returns 0", cudaGraphInstantiate(&x, g, 0), 0);
    // the side stream fills `in` with 5, then records `ready`; the launch waits for that record
    fill<<<(n + 255) / 256, 256, 0, side>>>(in, n, 5);
    cudaEventRecord(ready, side);
    check("cudaGraphLaunch returns 0", cudaGraphLaunch(x, s), 0);
    check("cudaEventSynchronize(done) returns 0", cudaEventSynchronize(done), 0);
    cudaMemcpy(h, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    check("after the record node: the kernel waited for the side stream's 5s", count_equal(h, n, 5), n);

    fill<<<(n + 255) / 256, 256, 0, side>>>(in, n, 2);
    cudaEventRecord(ready, side);
    cudaGraphLaunch(x, s);
    cudaStreamSynchronize(s);
    cudaMemcpy(h, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    check("a second launch waits for the newer record (5 + 2)", count_equal(h, n, 7), n);

    // the executable graph's record node now records `other`
    check("cudaGraphExecEventRecordNodeSetEvent returns 0", cudaGraphExecEventRecordNodeSetEvent(x, rec, other), 0);
    cudaGraphLaunch(x, s);
    check("cudaEventSynchronize(other) returns 0", cudaEventSynchronize(other), 0);
    cudaMemcpy(h, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    check("the third launch ran (7 + 2)", count_equal(h, n, 9), n);
    check("cudaGraphEventRecordNodeSetEvent returns 0", cudaGraphEventRecordNodeSetEvent(rec, other), 0);
    cudaGraphEventRecordNodeGetEvent(rec, &got);
    check("... and the node's event is the new one", got == other, 1);
    check("cudaGraphEventWaitNodeSetEvent returns 0", cudaGraphEventWaitNodeSetEvent(wait, other), 0);

    // captured: an external record and an external wait become event nodes
    cudaGraph_t cg;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    check("cudaStreamWaitEvent(cudaEventWaitExternal) in a capture returns 0",
          cudaStreamWaitEvent(s, ready, cudaEventWaitExternal), 0);
    const cudaGraphNode_t *deps = NULL;
    size_t ndeps = 0;
    cudaStreamCaptureStatus st;
    cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL, &ndeps);
    check("the capture's last node is one node", (long long)ndeps, 1);
    if (ndeps == 1) {
        cudaGraphNodeGetType(deps[0], &t);
        check("... an event wait node", t, cudaGraphNodeTypeWaitEvent);
    }
    add<<<(n + 255) / 256, 256, 0, s>>>(in, out, n);
    check("cudaEventRecordWithFlags(cudaEventRecordExternal) in a capture returns 0",
          cudaEventRecordWithFlags(done, s, cudaEventRecordExternal), 0);
    cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL, &ndeps);
    if (ndeps == 1) {
        cudaGraphNodeGetType(deps[0], &t);
        check("the capture's last node is an event record node", t, cudaGraphNodeTypeEventRecord);
    }
    check("cudaStreamEndCapture returns 0", cudaStreamEndCapture(s, &cg), 0);
    size_t nodes = 0;
    cudaGraphGetNodes(cg, NULL, &nodes);
    check("the captured graph has 3 nodes", (long long)nodes, 3);
    cudaGraphExec_t cx;
    cudaGraphInstantiate(&cx, cg, 0);
    fill<<<(n + 255) / 256, 256, 0, side>>>(in, n, 1);
    cudaEventRecord(ready, side);
    cudaGraphLaunch(cx, s);
    cudaEventSynchronize(done);
    cudaMemcpy(h, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    check("the captured graph waited for the side stream's 1s (9 + 1)", count_equal(h, n, 10), n);

    cudaGraphExecDestroy(cx);
    cudaGraphDestroy(cg);
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
    cudaEventDestroy(done);
    cudaEventDestroy(ready);
    cudaEventDestroy(other);
    cudaStreamDestroy(s);
    cudaStreamDestroy(side);
    cudaFree(in);
    cudaFree(out);
    cudaFreeHost(h);
    return 0;
}
