// compile time: CUDA 12's cudaStreamGetCaptureInfo(stream, &status, &id, &graph, &deps, &count) does not
// compile, as with nvcc 13, whose sixth parameter is the edge data (const cudaGraphEdgeData **).
// test-compile-fails: cudaGraphEdgeData
#include <stdio.h>

int main(void)
{
    cudaStream_t s;
    cudaStreamCreate(&s);
    enum cudaStreamCaptureStatus status;
    unsigned long long id;
    cudaGraph_t graph;
    const cudaGraphNode_t *deps;
    size_t count;
    printf("%d\n", (int)cudaStreamGetCaptureInfo(s, &status, &id, &graph, &deps, &count));
    return 0;
}
