// compile time: CUDA 12's cudaGraphAddDependencies(graph, from, to, count) does not compile, as with nvcc 13,
// which takes the edge data before the count.
// test-compile-fails: too few arguments
#include <stdio.h>

int main(void)
{
    cudaGraph_t g;
    cudaGraphNode_t a, b;
    cudaGraphCreate(&g, 0);
    cudaGraphAddEmptyNode(&a, g, NULL, 0);
    cudaGraphAddEmptyNode(&b, g, NULL, 0);
    printf("%d\n", (int)cudaGraphAddDependencies(g, &a, &b, 1));
    return 0;
}
