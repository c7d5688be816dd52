// fact: Unified memory: cudaPointerGetAttributes says Managed for managed memory, Device for a cudaMalloc
// pointer (also an interior one), Host for cudaMallocHost, Unregistered with device -2 for malloc, stack and
// NULL pointers; every one of these calls returns 0.
#include "check.h"
#include <stdlib.h>

static void check_kind(const char *what, const void *p, int type, int device)
{
    struct cudaPointerAttributes a;
    char fact[200];
    snprintf(fact, sizeof fact, "cudaPointerGetAttributes of %s returns 0", what);
    check(fact, cudaPointerGetAttributes(&a, p), 0);
    snprintf(fact, sizeof fact, "%s: type %d", what, type);
    check(fact, a.type, type);
    snprintf(fact, sizeof fact, "%s: device %d", what, device);
    check(fact, a.device, device);
}

int main(void)
{
    int local = 0;
    int *m = NULL, *d = NULL, *pinned = NULL, *h = (int *)malloc(64);
    cudaMallocManaged(&m, 64);
    cudaMalloc(&d, 64);
    cudaMallocHost(&pinned, 64);
    check_kind("managed memory", m, cudaMemoryTypeManaged, 0);
    check_kind("a cudaMalloc pointer", d, cudaMemoryTypeDevice, 0);
    check_kind("a pointer inside a cudaMalloc allocation (p + 1)", d + 1, cudaMemoryTypeDevice, 0);
    check_kind("cudaMallocHost memory", pinned, cudaMemoryTypeHost, 0);
    check_kind("a malloc pointer", h, cudaMemoryTypeUnregistered, -2);
    check_kind("a stack variable", &local, cudaMemoryTypeUnregistered, -2);
    check_kind("NULL", NULL, cudaMemoryTypeUnregistered, -2);
    check("no error is left behind", cudaGetLastError(), 0);
    cudaFree(m);
    cudaFree(d);
    cudaFreeHost(pinned);
    free(h);
    return 0;
}
