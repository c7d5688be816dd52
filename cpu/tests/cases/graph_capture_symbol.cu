// fact: cudaMemcpyToSymbolAsync on a capturing stream becomes a copy node: each launch of the graph copies
// the pinned host buffer as it is then into the __constant__ table, and the kernel after it reads that.
#include "check.h"

__constant__ int table[4];
__global__ void read_table(int *out) { out[threadIdx.x] = table[threadIdx.x] * 10; }

int main(void)
{
    int *d, *h, back[4] = {0, 0, 0, 0};
    cudaMalloc(&d, 4 * sizeof(int));
    cudaMallocHost(&h, 4 * sizeof(int));
    for (int i = 0; i < 4; i++) h[i] = i + 1;
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaGraph_t g;
    cudaGraphExec_t x;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    check("cudaMemcpyToSymbolAsync during the capture returns 0",
          cudaMemcpyToSymbolAsync(table, h, 4 * sizeof(int), 0, cudaMemcpyHostToDevice, s), 0);
    read_table<<<1, 4, 0, s>>>(d);
    check("cudaStreamEndCapture returns 0", cudaStreamEndCapture(s, &g), 0);
    size_t nodes = 0;
    cudaGraphGetNodes(g, NULL, &nodes);
    check("2 nodes", nodes, 2);
    cudaGraphInstantiate(&x, g, 0);
    cudaGraphLaunch(x, s);
    cudaStreamSynchronize(s);
    cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost);
    check("first launch: table 1..4", back[0] * 1000 + back[3], 10 * 1000 + 40);
    for (int i = 0; i < 4; i++) h[i] = 4 - i;
    cudaGraphLaunch(x, s);
    cudaStreamSynchronize(s);
    cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost);
    check("second launch copies the buffer as it is then: 4..1", back[0] * 1000 + back[3], 40 * 1000 + 10);
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
    cudaStreamDestroy(s);
    cudaFree(d);
    cudaFreeHost(h);
    check("no error", cudaGetLastError(), 0);
    return 0;
}
