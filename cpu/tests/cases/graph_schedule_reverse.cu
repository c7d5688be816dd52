// stream scheduling: a graph's nodes that do not depend on each other may run in any order (a GPU runs them
// concurrently); the CPU backend runs them in creation order by default, and under CUDAWB_SCHEDULE=reverse
// latest-created first, keeping every dependency, those inside a child graph and on it included.
// test-env: CUDAWB_SCHEDULE=reverse
// test-gpu: skip (two unordered nodes writing one word: a race, whose outcome a GPU does not promise)
#include "check.h"

__global__ void set(int *p, int v) { *p = v; }
__global__ void copy(int *to, const int *from) { *to = *from; }
__global__ void twice(int *p) { *p *= 2; }

static cudaGraphNode_t kernel(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, void *func, void **args)
{
    struct cudaKernelNodeParams kp = {};
    kp.func = func;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    kp.kernelParams = args;
    cudaGraphNode_t node;
    cudaGraphAddKernelNode(&node, g, deps, n, &kp);
    return node;
}

int main(void)
{
    int *d, h[4];
    cudaMalloc(&d, 4 * sizeof(int));
    int *x = d, *y = d + 1, *w = d + 2, *z = d + 3, one = 1, two = 2, five = 5;
    cudaGraph_t g, child;
    cudaGraphCreate(&g, 0);
    cudaGraphCreate(&child, 0);
    void *set_x1[] = {&x, &one}, *set_x2[] = {&x, &two}, *copy_xy[] = {&y, &x};
    void *set_w5[] = {&w, &five}, *twice_w[] = {&w}, *copy_wz[] = {&z, &w};
    cudaGraphNode_t both[2], sub;
    both[0] = kernel(g, NULL, 0, (void *)set, set_x1);
    both[1] = kernel(g, NULL, 0, (void *)set, set_x2);
    kernel(g, both, 2, (void *)copy, copy_xy);
    cudaGraphNode_t p = kernel(child, NULL, 0, (void *)set, set_w5);
    kernel(child, &p, 1, (void *)twice, twice_w);
    cudaGraphAddChildGraphNode(&sub, g, NULL, 0, child);
    kernel(g, &sub, 1, (void *)copy, copy_wz);
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    cudaGraphLaunch(e, 0);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    check("the later of two independent nodes ran first: x = 1", h[0], 1);
    check("the node depending on both ran after both", h[1], 1);
    check("the child graph's chain ran in order, before the node depending on it: 5 * 2", h[3], 10);
    cudaGraphExecDestroy(e);
    cudaGraphDestroy(g);
    cudaGraphDestroy(child);
    cudaFree(d);
    check("no error", cudaGetLastError(), 0);
    return 0;
}
