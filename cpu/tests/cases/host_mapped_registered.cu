// fact: Mapped and registered host memory on the H200: cudaHostAlloc(cudaHostAllocMapped) 0 and
// cudaHostGetDevicePointer 0, the device pointer equal to the host pointer, and a kernel can write through it;
// cudaHostRegister of a malloc buffer 0, again 712, cudaHostUnregister 0, again 713; a kernel on a registered
// malloc buffer works; on a plain malloc buffer it fails with the sticky 700.
#include "check.h"
#include <stdlib.h>

__global__ void add_one(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1;
}

int main(void)
{
    const int n = 4096;
    int *h = NULL, *d = NULL;
    check("cudaHostAlloc with cudaHostAllocMapped returns 0",
          cudaHostAlloc((void **)&h, n * sizeof(int), cudaHostAllocMapped), 0);
    for (int i = 0; i < n; i++) h[i] = i;
    check("cudaHostGetDevicePointer returns 0", cudaHostGetDevicePointer((void **)&d, h, 0), 0);
    check("the device pointer equals the host pointer", d == h, 1);
    add_one<<<n / 256, 256>>>(d, n);
    check("a kernel writing it, then a synchronize, returns 0", cudaDeviceSynchronize(), 0);
    check("the host sees what the kernel wrote", h[n - 1], n);
    check("cudaFreeHost returns 0", cudaFreeHost(h), 0);

    int *m = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) m[i] = 2 * i;
    check("cudaHostRegister of a malloc buffer returns 0", cudaHostRegister(m, n * sizeof(int), cudaHostRegisterDefault), 0);
    check("registering it again returns 712", cudaHostRegister(m, n * sizeof(int), cudaHostRegisterDefault), 712);
    check("which is the last error", cudaGetLastError(), 712);
    add_one<<<n / 256, 256>>>(m, n);
    check("a kernel on the registered buffer, then a synchronize, returns 0", cudaDeviceSynchronize(), 0);
    check("the host sees what the kernel wrote", m[n - 1], 2 * (n - 1) + 1);
    check("cudaHostUnregister returns 0", cudaHostUnregister(m), 0);
    check("unregistering it again returns 713", cudaHostUnregister(m), 713);
    check("which is the last error", cudaGetLastError(), 713);

    add_one<<<n / 256, 256>>>(m, n);
    check("a kernel on the plain malloc buffer: the synchronize returns 700", cudaDeviceSynchronize(), 700);
    check("which is sticky", cudaMalloc((void **)&d, 16), 700);
    free(m);
    return 0;
}
