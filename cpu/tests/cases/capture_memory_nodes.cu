// the CPU backend's limits: cudaMallocAsync or cudaFreeAsync on a capturing stream would make a memory node,
// which is not implemented: 900 with a message saying so, and the capture invalidated (never a graph that
// would allocate once and free at every launch). Outside a capture both work as before.
// test-gpu: skip (a GPU captures them as memory nodes)
// test-stderr: cudaMallocAsync on a capturing stream would be a memory node
#include "check.h"

int main(void)
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    void *p = NULL;
    cudaGraph_t g;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
    check("cudaMallocAsync on a capturing stream returns 900", cudaMallocAsync(&p, 64, s), 900);
    check("cudaStreamEndCapture returns 901", cudaStreamEndCapture(s, &g), 901);
    check("cudaMallocAsync after it returns 0", cudaMallocAsync(&p, 64, s), 0);
    check("cudaFreeAsync returns 0", cudaFreeAsync(p, s), 0);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
    return 0;
}
