// the trace (grader/README.md): "peak BYTES" is the most device memory the program held at once: cudaMalloc
// and cudaMallocAsync count from the call to their free (cudaFreeAsync at the call), pinned memory does not.
// test-report: ^peak 5000$
// test-report: ^live 0 0$
// test-gpu: skip (needs the grader's shim linked in)
#include "check.h"

int main(void)
{
    void *a = NULL, *b = NULL, *c = NULL, *h = NULL;
    cudaStream_t s = NULL;
    check("the stream is created", cudaStreamCreate(&s), 0);
    check("1000 bytes", cudaMalloc(&a, 1000), 0);
    check("3000 bytes more", cudaMalloc(&b, 3000), 0);
    check("1000 bytes in stream order: 5000 held", cudaMallocAsync(&c, 1000, s), 0);
    check("pinned memory is not device memory", cudaMallocHost(&h, 100000), 0);
    check("the first freed", cudaFree(a), 0);
    check("the stream-ordered one freed", cudaFreeAsync(c, s), 0);
    check("1000 bytes again: 4000 held, the peak stays 5000", cudaMalloc(&a, 1000), 0);
    check("wait", cudaStreamSynchronize(s), 0);
    cudaFree(a);
    cudaFree(b);
    cudaFreeHost(h);
    cudaStreamDestroy(s);
    return 0;
}
