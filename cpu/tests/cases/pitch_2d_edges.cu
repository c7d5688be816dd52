// fact: Pitched memory: cudaMallocPitch of width 0 or height 0 returns 0 with the pointer NULL and pitch 0; a
// NULL pitch pointer returns 1.
// fact: Pitched memory: cudaMemset2D with width > pitch, or a height past the allocation, returns 1.
// fact: Copies: cudaMemcpy2D host->device, device->host, device->device and cudaMemcpyDefault, and
// cudaMemcpy2DAsync, return 0; a width or height of 0 returns 0; the wrong kind (HostToDevice for a
// device->host copy) returns 1.
#include "check.h"

int main(void)
{
    void *p = &p;
    size_t pitch = 77;
    check("cudaMallocPitch of width 0 returns 0", cudaMallocPitch(&p, &pitch, 0, 10), 0);
    check("... with the pointer NULL", p == NULL, 1);
    check("... and pitch 0", pitch, 0);
    p = &p;
    pitch = 77;
    check("cudaMallocPitch of height 0 returns 0", cudaMallocPitch(&p, &pitch, 100, 0), 0);
    check("... with the pointer NULL", p == NULL, 1);
    check("... and pitch 0", pitch, 0);
    check("cudaMallocPitch with a NULL pitch pointer returns 1", cudaMallocPitch(&p, NULL, 100, 10), 1);
    cudaGetLastError();

    const size_t w = 100, h = 10;
    char *d = NULL, *d2 = NULL;
    cudaMallocPitch(&d, &pitch, w, h);
    size_t pitch2 = 0;
    cudaMallocPitch(&d2, &pitch2, w, h);
    check("cudaMemset2D that fits returns 0", cudaMemset2D(d, pitch, 7, w, h), 0);
    check("cudaMemset2D with width > pitch returns 1", cudaMemset2D(d, pitch, 0, pitch + 1, h), 1);
    check("cudaMemset2D with a height past the allocation returns 1", cudaMemset2D(d, pitch, 0, w, h + 1), 1);
    cudaGetLastError();

    static char host[w * h], back[w * h];
    for (size_t i = 0; i < w * h; i++) host[i] = (char)(i * 7 + 1);
    check("cudaMemcpy2D host->device returns 0", cudaMemcpy2D(d, pitch, host, w, w, h, cudaMemcpyHostToDevice), 0);
    check("cudaMemcpy2D device->device returns 0",
          cudaMemcpy2D(d2, pitch2, d, pitch, w, h, cudaMemcpyDeviceToDevice), 0);
    check("cudaMemcpy2D device->host returns 0", cudaMemcpy2D(back, w, d2, pitch2, w, h, cudaMemcpyDeviceToHost), 0);
    int same = 1;
    for (size_t i = 0; i < w * h; i++) same &= back[i] == host[i];
    check("the round trip brings every byte back", same, 1);
    check("cudaMemcpy2D with cudaMemcpyDefault returns 0", cudaMemcpy2D(back, w, d, pitch, w, h, cudaMemcpyDefault), 0);
    check("cudaMemcpy2DAsync returns 0", cudaMemcpy2DAsync(d, pitch, host, w, w, h, cudaMemcpyHostToDevice, 0), 0);
    check("cudaDeviceSynchronize after it returns 0", cudaDeviceSynchronize(), 0);
    check("cudaMemcpy2D of width 0 returns 0", cudaMemcpy2D(d, pitch, host, w, 0, h, cudaMemcpyHostToDevice), 0);
    check("cudaMemcpy2D of height 0 returns 0", cudaMemcpy2D(d, pitch, host, w, w, 0, cudaMemcpyHostToDevice), 0);
    check("cudaMemcpy2D device->host with kind HostToDevice returns 1",
          cudaMemcpy2D(back, w, d, pitch, w, h, cudaMemcpyHostToDevice), 1);
    cudaGetLastError();
    cudaFree(d);
    cudaFree(d2);
    check("no error is left behind", cudaGetLastError(), 0);
    return 0;
}
