// fact: Graphs built node by node: a memset node (4-byte elements), a kernel node given its arguments as a
// void ** array, a child graph node, an empty node, a 1-D memcpy node and a host node, ordered by the
// dependencies given at creation and by cudaGraphAddDependencies. Each launch does the whole work again; a
// kernel node's parameters read back (cudaGraphKernelNodeGetParams: its copy of the arguments), its arguments
// changed in the executable graph (cudaGraphExecKernelNodeSetParams) or taken from a
// graph of the same shape (cudaGraphExecUpdate) apply to the next launches; a graph of another shape is
// refused (910, topology changed). A 3-D memcpy node copies between pitched allocations.
#include "check.h"
#include <string.h>

__global__ void scale(float *a, int n, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= k;
}
__global__ void add_one(float *a, int n, unsigned int *launches)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1.0f;
    if (i == 0) atomicAdd(launches, 1u);
}

static int host_calls;
static void CUDART_CB host_fn(void *p) { host_calls += *(int *)p; }

int main(void)
{
    const int n = 300;
    float *d, *h;
    unsigned int *launches;
    cudaMalloc(&d, n * sizeof(float));
    cudaMalloc(&launches, sizeof(unsigned int));
    cudaMemset(launches, 0, sizeof(unsigned int));
    cudaMallocHost(&h, n * sizeof(float));
    cudaStream_t s;
    cudaStreamCreate(&s);

    cudaGraph_t child, g;
    check("cudaGraphCreate returns 0", cudaGraphCreate(&child, 0), 0);
    cudaGraphCreate(&g, 0);
    int nn = n;
    void *child_args[] = {&d, &nn, &launches};
    struct cudaKernelNodeParams kp = {};
    kp.func = (void *)add_one;
    kp.gridDim = dim3((n + 127) / 128);
    kp.blockDim = dim3(128);
    kp.kernelParams = child_args;
    cudaGraphNode_t c1;
    check("cudaGraphAddKernelNode (child graph) returns 0", cudaGraphAddKernelNode(&c1, child, NULL, 0, &kp), 0);

    struct cudaMemsetParams mp;
    memset(&mp, 0, sizeof mp);
    mp.dst = d;
    mp.value = 0x3f800000u;  /* 1.0f */
    mp.elementSize = 4;
    mp.width = n;
    mp.height = 1;
    cudaGraphNode_t set, k, sub, empty, copy, host;
    check("cudaGraphAddMemsetNode returns 0", cudaGraphAddMemsetNode(&set, g, NULL, 0, &mp), 0);
    float factor = 2.0f;
    void *args[] = {&d, &nn, &factor};
    kp.func = (void *)scale;
    kp.kernelParams = args;
    check("cudaGraphAddKernelNode returns 0", cudaGraphAddKernelNode(&k, g, &set, 1, &kp), 0);
    factor = 100.0f;  /* the node copied the arguments when it was made */
    check("cudaGraphAddChildGraphNode returns 0", cudaGraphAddChildGraphNode(&sub, g, NULL, 0, child), 0);
    check("cudaGraphAddEmptyNode returns 0", cudaGraphAddEmptyNode(&empty, g, &sub, 1), 0);
    check("cudaGraphAddMemcpyNode1D returns 0",
          cudaGraphAddMemcpyNode1D(&copy, g, &empty, 1, h, d, n * sizeof(float), cudaMemcpyDeviceToHost), 0);
    int one = 1;
    struct cudaHostNodeParams hp = {host_fn, &one};
    check("cudaGraphAddHostNode returns 0", cudaGraphAddHostNode(&host, g, &copy, 1, &hp), 0);
    check("cudaGraphAddDependencies (kernel before child) returns 0",
          cudaGraphAddDependencies(g, &k, &sub, NULL, 1), 0);
    /* to be measured: CUDA documents "an error" for these two */
    check("the same edge again returns 1", cudaGraphAddDependencies(g, &k, &sub, NULL, 1), 1);
    cudaGetLastError();
    check("a dependency on a node of another graph returns 1", cudaGraphAddEmptyNode(&empty, g, &c1, 1), 1);
    cudaGetLastError();
    size_t count = 0;
    cudaGraphGetNodes(g, NULL, &count);
    check("the graph has 6 nodes", count, 6);
    enum cudaGraphNodeType t;
    cudaGraphNodeGetType(sub, &t);
    check("the child graph node's type", t, cudaGraphNodeTypeGraph);
    cudaGraphNodeGetType(set, &t);
    check("the memset node's type", t, cudaGraphNodeTypeMemset);
    cudaGraphNode_t got_deps[3] = {NULL, NULL, NULL};
    size_t ndeps = 3;
    check("cudaGraphNodeGetDependencies returns 0", cudaGraphNodeGetDependencies(sub, got_deps, NULL, &ndeps), 0);
    check("... the child graph node depends on the kernel only",
          ndeps * 10 + (got_deps[0] == k) + (got_deps[1] == NULL), 12);
    cudaGraphNodeGetDependentNodes(k, NULL, NULL, &ndeps);
    check("the kernel node has one dependent node", ndeps, 1);
    cudaGraph_t copy_of_g;
    check("cudaGraphClone returns 0", cudaGraphClone(&copy_of_g, g), 0);
    cudaGraphGetNodes(copy_of_g, NULL, &count);
    check("... a graph of 6 nodes", count, 6);
    cudaGraphDestroy(copy_of_g);

    cudaGraphExec_t x;
    check("cudaGraphInstantiate returns 0", cudaGraphInstantiate(&x, g, 0), 0);
    for (int i = 0; i < n; i++) h[i] = -5.0f;
    cudaGraphLaunch(x, s);
    cudaGraphLaunch(x, s);
    check("cudaStreamSynchronize returns 0", cudaStreamSynchronize(s), 0);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[i] != 3.0f;
    check("each launch: 1 * 2 + 1 = 3", bad, 0);
    check("the host node ran twice", host_calls, 2);
    unsigned int got = 0;
    cudaMemcpy(&got, launches, sizeof got, cudaMemcpyDeviceToHost);
    check("the child graph's kernel ran twice", got, 2);

    factor = 5.0f;
    check("cudaGraphExecKernelNodeSetParams returns 0", cudaGraphExecKernelNodeSetParams(x, k, &kp), 0);
    cudaGraphLaunch(x, s);
    cudaStreamSynchronize(s);
    check("the next launch scales by 5: 1 * 5 + 1 = 6", h[0] + h[n - 1], 12.0f);

    struct cudaKernelNodeParams now = {};
    check("cudaGraphKernelNodeGetParams returns 0", cudaGraphKernelNodeGetParams(k, &now), 0);
    check("... the kernel and its configuration", (now.func == (void *)scale) + (now.blockDim.x == 128), 2);
    check("... the factor it was made with: 2", *(float *)now.kernelParams[2], 2.0f);
    float four = 4.0f;  /* get, change one argument, set */
    void *args4[] = {now.kernelParams[0], now.kernelParams[1], &four};
    now.kernelParams = args4;
    check("cudaGraphExecKernelNodeSetParams with them returns 0", cudaGraphExecKernelNodeSetParams(x, k, &now), 0);
    cudaGraphLaunch(x, s);
    cudaStreamSynchronize(s);
    check("the next launch scales by 4: 1 * 4 + 1 = 5", h[0] + h[n - 1], 10.0f);

    /* a graph of the same shape with another factor */
    cudaGraph_t g2;
    cudaGraphNode_t k2, sub2, empty2, copy2, host2, set2;
    cudaGraphCreate(&g2, 0);
    cudaGraphAddMemsetNode(&set2, g2, NULL, 0, &mp);
    factor = 7.0f;
    cudaGraphAddKernelNode(&k2, g2, &set2, 1, &kp);
    cudaGraphAddChildGraphNode(&sub2, g2, NULL, 0, child);
    cudaGraphAddEmptyNode(&empty2, g2, &sub2, 1);
    cudaGraphAddMemcpyNode1D(&copy2, g2, &empty2, 1, h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaGraphAddHostNode(&host2, g2, &copy2, 1, &hp);
    cudaGraphAddDependencies(g2, &k2, &sub2, NULL, 1);
    cudaGraphExecUpdateResultInfo info;
    check("cudaGraphExecUpdate (same shape) returns 0", cudaGraphExecUpdate(x, g2, &info), 0);
    check("... result Success", info.result, cudaGraphExecUpdateSuccess);
    cudaGraphLaunch(x, s);
    cudaStreamSynchronize(s);
    check("the next launch scales by 7: 1 * 7 + 1 = 8", h[0] + h[n - 1], 16.0f);
    cudaGraphNode_t extra;
    cudaGraphAddEmptyNode(&extra, g2, &host2, 1);
    check("cudaGraphExecUpdate (another shape) returns 910", cudaGraphExecUpdate(x, g2, &info), 910);
    check("... result ErrorTopologyChanged", info.result, cudaGraphExecUpdateErrorTopologyChanged);
    cudaGetLastError();

    /* a 3-D memcpy node between two pitched 16 x 4 x 2 boxes of bytes */
    cudaPitchedPtr src, dst;
    cudaExtent ext = make_cudaExtent(16, 4, 2);
    cudaMalloc3D(&src, ext);
    cudaMalloc3D(&dst, ext);
    cudaMemset3D(src, 9, ext);
    cudaMemset3D(dst, 0, ext);
    struct cudaMemcpy3DParms cp;
    memset(&cp, 0, sizeof cp);
    cp.srcPtr = src;
    cp.dstPtr = dst;
    cp.extent = ext;
    cp.kind = cudaMemcpyDeviceToDevice;
    cudaGraph_t g3;
    cudaGraphExec_t x3;
    cudaGraphNode_t c3;
    cudaGraphCreate(&g3, 0);
    check("cudaGraphAddMemcpyNode (3-D) returns 0", cudaGraphAddMemcpyNode(&c3, g3, NULL, 0, &cp), 0);
    cudaGraphInstantiate(&x3, g3, 0);
    cudaGraphLaunch(x3, s);
    cudaStreamSynchronize(s);
    unsigned char last = 0;
    cudaMemcpy(&last, (char *)dst.ptr + dst.pitch * 4 * 1 + dst.pitch * 3 + 15, 1, cudaMemcpyDeviceToHost);
    check("the 3-D node copied the last byte of the box", last, 9);

    cudaGraphExecDestroy(x3);
    cudaGraphDestroy(g3);
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g2);
    cudaGraphDestroy(g);
    cudaGraphDestroy(child);
    cudaFree(src.ptr);
    cudaFree(dst.ptr);
    cudaStreamDestroy(s);
    cudaFree(d);
    cudaFree(launches);
    cudaFreeHost(h);
    check("no error", cudaGetLastError(), 0);
    return 0;
}
