// fact: Allocation: cudaMalloc(&p, 0) returns 0 with p = NULL; cudaMalloc(NULL, 16) returns 1.
// fact: Allocation: cudaMallocManaged / cudaMallocPitch too large return 2, pointer NULL, pitch still
// written, last error set.
// fact: Allocation: cudaMallocHost returns 0; freeing it with cudaFree gives 1; cudaFreeHost of a device
// pointer gives 1.
// fact: Free: cudaFree(NULL) returns 0.
#include "check.h"

int main(void)
{
    void *p = &p;
    check("cudaMalloc(&p, 0) returns 0", cudaMalloc(&p, 0), 0);
    check("cudaMalloc(&p, 0) sets p to NULL", p == NULL, 1);
    check("cudaMalloc(NULL, 16) returns cudaErrorInvalidValue", cudaMalloc(NULL, 16), cudaErrorInvalidValue);
    cudaGetLastError();

    p = &p;
    check("cudaMallocManaged too large returns 2", cudaMallocManaged(&p, (size_t)1 << 50), 2);
    check("cudaMallocManaged too large sets the pointer to NULL", p == NULL, 1);
    check("cudaMallocManaged too large sets the last error", cudaGetLastError(), 2);
    size_t pitch = 0;
    p = &p;
    check("cudaMallocPitch too large returns 2", cudaMallocPitch(&p, &pitch, 1000, (size_t)1 << 40), 2);
    check("cudaMallocPitch too large sets the pointer to NULL", p == NULL, 1);
    check("cudaMallocPitch too large still writes the pitch", pitch, 1024);
    check("cudaMallocPitch too large sets the last error", cudaGetLastError(), 2);

    void *h = NULL, *d = NULL;
    check("cudaMallocHost returns 0", cudaMallocHost(&h, 4096), 0);
    check("cudaMalloc returns 0", cudaMalloc(&d, 4096), 0);
    check("cudaFree of pinned memory returns 1", cudaFree(h), cudaErrorInvalidValue);
    check("cudaFreeHost of device memory returns 1", cudaFreeHost(d), cudaErrorInvalidValue);
    cudaGetLastError();
    check("cudaFreeHost of pinned memory returns 0", cudaFreeHost(h), 0);
    check("cudaFree of device memory returns 0", cudaFree(d), 0);
    check("cudaFree(NULL) returns 0", cudaFree(NULL), 0);
    check("no error is left behind", cudaGetLastError(), 0);
    return 0;
}
