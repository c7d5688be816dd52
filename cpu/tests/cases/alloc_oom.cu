// fact: Allocation: cudaMalloc(&p, 1<<50) returns 2 "out of memory" and sets p to NULL; the next
// cudaGetLastError returns 2, the one after 0; not sticky: the next allocation succeeds.
// fact: Allocation: cudaPeekAtLastError after an OOM returns 2 and leaves it set; cudaDeviceSynchronize
// returns 0 and does not clear it.
#include <string.h>
#include "check.h"

int main(void)
{
    float *p = (float *)&p;
    cudaError_t e = cudaMalloc(&p, (size_t)1 << 50);
    check("cudaMalloc(1<<50) returns cudaErrorMemoryAllocation", e, cudaErrorMemoryAllocation);
    check("its error string is \"out of memory\"", strcmp(cudaGetErrorString(e), "out of memory"), 0);
    check("the pointer is set to NULL", p == NULL, 1);
    check("cudaPeekAtLastError returns 2", cudaPeekAtLastError(), 2);
    check("cudaPeekAtLastError leaves it set", cudaPeekAtLastError(), 2);
    check("cudaDeviceSynchronize returns 0", cudaDeviceSynchronize(), 0);
    check("cudaGetLastError still returns 2", cudaGetLastError(), 2);
    check("the next cudaGetLastError returns 0", cudaGetLastError(), 0);
    check("the next allocation succeeds (not sticky)", cudaMalloc(&p, 1024), 0);
    check("cudaFree of it succeeds", cudaFree(p), 0);
    return 0;
}
