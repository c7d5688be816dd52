// fact: Unified memory: cudaMallocManaged(&p, 0) returns 0 with p = NULL; flags cudaMemAttachHost 0, an
// invalid flag (4) 1; cudaFreeHost of managed memory 1; cudaFree of it twice: first 0, second 1. Each error
// is also the last error, and none is sticky.
#include "check.h"

int main(void)
{
    void *p = &p, *q = NULL;
    check("cudaMallocManaged(&p, 0) returns 0", cudaMallocManaged(&p, 0), 0);
    check("and sets p to NULL", p == NULL, 1);
    check("cudaMallocManaged with cudaMemAttachHost returns 0", cudaMallocManaged(&q, 4096, cudaMemAttachHost), 0);
    check("cudaFree of it returns 0", cudaFree(q), 0);
    check("cudaMallocManaged with the invalid flag 4 returns 1", cudaMallocManaged(&q, 4096, 4), 1);
    check("which is the last error", cudaGetLastError(), 1);
    check("and not sticky", cudaGetLastError(), 0);

    check("cudaMallocManaged returns 0", cudaMallocManaged(&q, 4096), 0);
    check("cudaFreeHost of managed memory returns 1", cudaFreeHost(q), 1);
    check("which is the last error", cudaGetLastError(), 1);
    check("cudaFree of it returns 0 the first time", cudaFree(q), 0);
    check("and 1 the second", cudaFree(q), 1);
    check("which is the last error", cudaGetLastError(), 1);
    check("and not sticky", cudaGetLastError(), 0);
    check("a new allocation still works", cudaMallocManaged(&q, 4096), 0);
    cudaFree(q);
    return 0;
}
