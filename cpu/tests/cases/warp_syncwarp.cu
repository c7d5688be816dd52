// kernel feature: __syncwarp orders shared-memory writes between the lanes of a warp, also when the two
// halves of the warp reach it from different branches (allowed since Volta); each lane then reads what its
// partner in the other half wrote. Expected values computed on the host.
#include "check.h"

__global__ void halves(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x, lane = t % 32, base = t - lane;
    if (lane < 16) {
        s[t] = 100 + t;
        __syncwarp();
    } else {
        s[t] = 200 + t;
        __syncwarp();
    }
    out[t] = s[base + (lane + 16) % 32];
}

int main(void)
{
    int *d = NULL, h[64];
    cudaMalloc(&d, sizeof h);
    halves<<<1, 64>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int t = 0; t < 64; t++) {
        int p = t - t % 32 + (t % 32 + 16) % 32;
        bad += h[t] != (p % 32 < 16 ? 100 : 200) + p;
    }
    check("every lane read its partner's write after __syncwarp in either branch (wrong lanes)", bad, 0);
    cudaFree(d);
    return 0;
}
