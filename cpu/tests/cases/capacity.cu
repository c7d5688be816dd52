// the simulated device's capacity (CUDAWB_CPU_MEMORY) makes out-of-memory real and deterministic, and
// cudaMemGetInfo follows the allocations.
// test-env: CUDAWB_CPU_MEMORY=1048576
// test-gpu: skip (the capacity is the backend's setting)
#include "check.h"

int main(void)
{
    size_t free_b = 0, total = 0;
    void *a = NULL, *b = NULL;
    cudaMemGetInfo(&free_b, &total);
    check("total is CUDAWB_CPU_MEMORY", total, 1048576);
    check("all of it is free", free_b, 1048576);
    check("600 KB fit", cudaMalloc(&a, 600 * 1024), 0);
    cudaMemGetInfo(&free_b, &total);
    check("free shrinks by the allocation", total - free_b, 600 * 1024);
    check("600 KB more do not", cudaMalloc(&b, 600 * 1024), 2);
    cudaGetLastError();
    cudaFree(a);
    check("after the free they do", cudaMalloc(&b, 600 * 1024), 0);
    cudaFree(b);
    return 0;
}
