// fact: cudaMallocAsync and cudaFreeAsync on a capturing stream become the graph's alloc and free nodes
// (CUDA 13.0's documentation): the address cudaMallocAsync returns during the capture is the graph's
// allocation, the same at every launch; work captured between them uses it. Captured with the free, the graph
// can be launched again and again; captured without it, the allocation outlives each launch, and the graph
// cannot be launched again (1) until cudaFreeAsync frees it outside. An invalidated capture frees its
// graph's allocations.
#include "check.h"
#include "iota.h"

int main(void)
{
    const int n = 4096;
    int *h, *d = NULL;
    cudaMallocHost(&h, n * sizeof(int));
    cudaStream_t s;
    cudaStreamCreate(&s);

    cudaGraph_t g;
    check("cudaStreamBeginCapture returns 0", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), 0);
    check("cudaMallocAsync on the capturing stream returns 0", cudaMallocAsync((void **)&d, n * sizeof(int), s), 0);
    check("... and an address", d != NULL, 1);
    const cudaGraphNode_t *deps = NULL;
    size_t ndeps = 0;
    cudaStreamCaptureStatus st;
    cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL, &ndeps);
    enum cudaGraphNodeType t = cudaGraphNodeTypeCount;
    if (ndeps == 1) cudaGraphNodeGetType(deps[0], &t);
    check("the capture's last node is an alloc node", t, cudaGraphNodeTypeMemAlloc);
    iota<<<(n + 255) / 256, 256, 0, s>>>(d, n, 3);
    cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
    check("cudaFreeAsync on the capturing stream returns 0", cudaFreeAsync(d, s), 0);
    cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL, &ndeps);
    t = cudaGraphNodeTypeCount;
    if (ndeps == 1) cudaGraphNodeGetType(deps[0], &t);
    check("the capture's last node is a free node", t, cudaGraphNodeTypeMemFree);
    check("cudaStreamEndCapture returns 0", cudaStreamEndCapture(s, &g), 0);
    size_t nodes = 0;
    cudaGraphGetNodes(g, NULL, &nodes);
    check("the graph has 4 nodes", (long long)nodes, 4);
    cudaGraphExec_t x;
    cudaGraphInstantiate(&x, g, 0);
    check("the first launch returns 0", cudaGraphLaunch(x, s), 0);
    check("the second launch returns 0", cudaGraphLaunch(x, s), 0);
    check("cudaStreamSynchronize returns 0", cudaStreamSynchronize(s), 0);
    check("the captured kernel wrote the allocation, the copy read it", count_iota(h, n, 3), n);
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);

    // without the free: the allocation outlives the launch
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMallocAsync((void **)&d, n * sizeof(int), s);
    iota<<<(n + 255) / 256, 256, 0, s>>>(d, n, 9);
    check("cudaStreamEndCapture returns 0", cudaStreamEndCapture(s, &g), 0);
    cudaGraphInstantiate(&x, g, 0);
    check("launching it returns 0", cudaGraphLaunch(x, s), 0);
    cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    check("stream work after the launch reads the allocation", count_iota(h, n, 9), n);
    check("launching it again before a free returns 1", cudaGraphLaunch(x, s), 1);
    cudaGetLastError();
    check("cudaFreeAsync of it outside the graph returns 0", cudaFreeAsync(d, s), 0);
    check("launching it after the free returns 0", cudaGraphLaunch(x, s), 0);
    cudaFreeAsync(d, s);
    check("cudaStreamSynchronize returns 0", cudaStreamSynchronize(s), 0);
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);

    // an invalidated capture: no graph, and its allocation is gone with it
    size_t before, after, total;
    cudaMemGetInfo(&before, &total);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMallocAsync((void **)&d, (size_t)64 << 20, s);
    check("cudaStreamSynchronize of the capturing stream returns 900", cudaStreamSynchronize(s), 900);
    check("cudaStreamEndCapture returns 901", cudaStreamEndCapture(s, &g), 901);
    cudaGetLastError();
    cudaMemGetInfo(&after, &total);
    check("free memory after the invalidated capture, in MiB, as before", (long long)((before - after) >> 20), 0);

    cudaStreamDestroy(s);
    cudaFreeHost(h);
    return 0;
}
