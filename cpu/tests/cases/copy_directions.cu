// fact: Copies: device dst + host src with kind DeviceToHost or DeviceToDevice return 1 and copy nothing;
// host dst + device src with HostToDevice return 1; host + host with HostToDevice return 1.
// fact: Copies: device dst + host src with kind HostToHost return 0 and the data IS copied.
// fact: Copies: cudaMemcpyDefault returns 0 and copies in any direction.
// fact: Copies: a kind not in the enum (7) returns 21 cudaErrorInvalidMemcpyDirection.
// fact: Copies: a count larger than the allocation, or a freed device pointer, returns 1.
#include "check.h"

int main(void)
{
    int h[4] = {1, 2, 3, 4}, back[4] = {0, 0, 0, 0}, h2[4] = {0, 0, 0, 0};
    int *d = NULL, *gone = NULL;
    cudaMalloc(&d, sizeof h);
    cudaMemset(d, 0, sizeof h);
    check("device dst, host src, DeviceToHost returns 1", cudaMemcpy(d, h, sizeof h, cudaMemcpyDeviceToHost), 1);
    check("device dst, host src, DeviceToDevice returns 1", cudaMemcpy(d, h, sizeof h, cudaMemcpyDeviceToDevice), 1);
    cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost);
    check("... and nothing was copied", back[0] + back[3], 0);
    check("host dst, device src, HostToDevice returns 1", cudaMemcpy(back, d, sizeof h, cudaMemcpyHostToDevice), 1);
    check("host dst, host src, HostToDevice returns 1", cudaMemcpy(h2, h, sizeof h, cudaMemcpyHostToDevice), 1);
    check("device dst, host src, HostToHost returns 0", cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToHost), 0);
    cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost);
    check("... and the data IS copied", back[3], 4);
    cudaMemset(d, 0, sizeof h);
    check("Default, host to device, returns 0", cudaMemcpy(d, h, sizeof h, cudaMemcpyDefault), 0);
    check("Default, device to host, returns 0", cudaMemcpy(h2, d, sizeof h, cudaMemcpyDefault), 0);
    check("... and the data went both ways", h2[2], 3);
    check("kind 7 returns 21", cudaMemcpy(back, d, sizeof h, (cudaMemcpyKind)7), cudaErrorInvalidMemcpyDirection);
    check("count larger than the allocation returns 1", cudaMemcpy(back, d, 2 * sizeof h, cudaMemcpyDeviceToHost), 1);
    cudaMalloc(&gone, 16);
    cudaFree(gone);
    check("a freed device pointer returns 1", cudaMemcpy(back, gone, 16, cudaMemcpyDeviceToHost), 1);
    check("the last error is 1", cudaGetLastError(), 1);
    cudaFree(d);
    return 0;
}
