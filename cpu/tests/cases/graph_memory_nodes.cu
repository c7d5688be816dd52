// fact: Graph memory nodes built node by node (CUDA 13.0's documentation): cudaGraphAddMemAllocNode returns
// the allocation's address in dptr, fixed across launches; nodes after the alloc node use it, a free node
// frees it, and such a graph can be launched again and again. An allocation the graph does not free outlives
// the launch (stream work after it may use it) until cudaFreeAsync or cudaFree; launching the graph again
// before that fails with 1, unless it was instantiated with cudaGraphInstantiateFlagAutoFreeOnLaunch. A free
// node of an address no alloc node returned, or a second free node of one allocation, is 1. A graph with
// memory nodes is not cloned and has one executable graph at a time (CUDA names no code for these two: only
// "not 0" is checked). cudaFree of a graph allocation that is not allocated (freed already): to be measured
// on the H200 (1 here).
#include "check.h"
#include "iota.h"

int main(void)
{
    const int n = 5000;
    int *h;
    cudaMallocHost(&h, n * sizeof(int));
    cudaStream_t s;
    cudaStreamCreate(&s);

    // alloc -> iota -> copy to h -> free
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    struct cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = n * sizeof(int);
    cudaGraphNode_t alloc, k, copy, release;
    check("cudaGraphAddMemAllocNode returns 0", cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap), 0);
    check("... and sets dptr", ap.dptr != NULL, 1);
    int *d = (int *)ap.dptr;
    int nn = n, base = 7;
    void *args[] = {&d, &nn, &base};
    struct cudaKernelNodeParams kp = {};
    kp.func = (void *)iota;
    kp.gridDim = dim3((n + 255) / 256);
    kp.blockDim = dim3(256);
    kp.kernelParams = args;
    cudaGraphAddKernelNode(&k, g, &alloc, 1, &kp);
    cudaGraphAddMemcpyNode1D(&copy, g, &k, 1, h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    check("cudaGraphAddMemFreeNode returns 0", cudaGraphAddMemFreeNode(&release, g, &copy, 1, d), 0);
    cudaGraphNode_t bad;
    check("a second free node of the same allocation returns 1", cudaGraphAddMemFreeNode(&bad, g, &copy, 1, d), 1);
    check("a free node of an address no alloc node returned returns 1",
          cudaGraphAddMemFreeNode(&bad, g, NULL, 0, h), 1);
    enum cudaGraphNodeType t;
    cudaGraphNodeGetType(alloc, &t);
    check("the alloc node's type is cudaGraphNodeTypeMemAlloc", t, cudaGraphNodeTypeMemAlloc);
    cudaGraphNodeGetType(release, &t);
    check("the free node's type is cudaGraphNodeTypeMemFree", t, cudaGraphNodeTypeMemFree);
    struct cudaMemAllocNodeParams back = {};
    check("cudaGraphMemAllocNodeGetParams returns 0", cudaGraphMemAllocNodeGetParams(alloc, &back), 0);
    check("... its bytesize", (long long)back.bytesize, n * (long long)sizeof(int));
    check("... its dptr", back.dptr == ap.dptr, 1);
    void *freed = NULL;
    check("cudaGraphMemFreeNodeGetParams returns 0", cudaGraphMemFreeNodeGetParams(release, &freed), 0);
    check("... the address it frees", freed == ap.dptr, 1);
    cudaGraph_t copy_of_g;
    check("cudaGraphClone of a graph with memory nodes fails", cudaGraphClone(&copy_of_g, g) != cudaSuccess, 1);

    cudaGraphExec_t x, second;
    check("cudaGraphInstantiate returns 0", cudaGraphInstantiate(&x, g, 0), 0);
    check("a second executable graph of it fails", cudaGraphInstantiate(&second, g, 0) != cudaSuccess, 1);
    cudaGetLastError();
    check("the first launch returns 0", cudaGraphLaunch(x, s), 0);
    check("the second launch returns 0 (the graph freed its memory)", cudaGraphLaunch(x, s), 0);
    cudaStreamSynchronize(s);
    check("the kernel wrote the graph's allocation, the copy node read it", count_iota(h, n, 7), n);
    cudaGraphExecDestroy(x);
    check("after cudaGraphExecDestroy, another executable graph returns 0", cudaGraphInstantiate(&x, g, 0), 0);
    cudaGraphExecDestroy(x);

    // alloc -> iota, not freed in the graph: the memory outlives the launch
    cudaGraph_t keep;
    cudaGraphCreate(&keep, 0);
    ap.dptr = NULL;
    cudaGraphAddMemAllocNode(&alloc, keep, NULL, 0, &ap);
    d = (int *)ap.dptr;
    base = 100;
    cudaGraphAddKernelNode(&k, keep, &alloc, 1, &kp);
    cudaGraphExec_t kx;
    cudaGraphInstantiate(&kx, keep, 0);
    check("launching a graph that does not free its allocation returns 0", cudaGraphLaunch(kx, s), 0);
    cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    check("stream work after the launch reads the allocation", count_iota(h, n, 100), n);
    check("launching it again before a free returns 1", cudaGraphLaunch(kx, s), 1);
    check("... and leaves 1 as the last error", cudaGetLastError(), 1);
    check("cudaFreeAsync of the graph's allocation returns 0", cudaFreeAsync(d, s), 0);
    check("launching it again after the free returns 0", cudaGraphLaunch(kx, s), 0);
    cudaStreamSynchronize(s);
    check("cudaFree of the graph's allocation returns 0", cudaFree(d), 0);
    check("cudaFree of it again returns 1 (to be measured)", cudaFree(d), 1);
    cudaGetLastError();
    cudaGraphExecDestroy(kx);

    // the same graph, instantiated to free on launch
    check("cudaGraphInstantiateWithFlags(AutoFreeOnLaunch) returns 0",
          cudaGraphInstantiateWithFlags(&kx, keep, cudaGraphInstantiateFlagAutoFreeOnLaunch), 0);
    check("its first launch returns 0", cudaGraphLaunch(kx, s), 0);
    check("its second launch, without a free, returns 0", cudaGraphLaunch(kx, s), 0);
    cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
    cudaFreeAsync(d, s);
    check("cudaStreamSynchronize returns 0", cudaStreamSynchronize(s), 0);
    check("the allocation, at the same address, was written again", count_iota(h, n, 100), n);

    cudaGraphExecDestroy(kx);
    cudaGraphDestroy(keep);
    cudaGraphDestroy(g);
    cudaStreamDestroy(s);
    cudaFreeHost(h);
    return 0;
}
