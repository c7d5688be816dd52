// kernel feature: __shfl_sync, __shfl_up_sync, __shfl_down_sync and __shfl_xor_sync with widths 32, 16 and 8
// (lanes out of the segment keep their own value); every lane's result is checked against the rule computed
// on the host; 64-bit values move whole.
#include "check.h"

__global__ void shuffles(int *out, long long *wide, int width)
{
    int lane = threadIdx.x % 32, v = 1000 + (int)threadIdx.x;
    int *o = out + threadIdx.x * 4;
    o[0] = __shfl_sync(0xffffffff, v, 5, width);
    o[1] = __shfl_up_sync(0xffffffff, v, 3, width);
    o[2] = __shfl_down_sync(0xffffffff, v, 3, width);
    o[3] = __shfl_xor_sync(0xffffffff, v, 1 + lane % 2 * 4 % width, width);
    wide[threadIdx.x] = __shfl_xor_sync(0xffffffff, (long long)threadIdx.x << 40 | 7, 2, width);
}

int main(void)
{
    int *d = NULL, h[64 * 4];
    long long *dw = NULL, hw[64];
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&dw, sizeof hw);
    const int widths[3] = {32, 16, 8};
    for (int k = 0; k < 3; k++) {
        int w = widths[k], bad = 0;
        shuffles<<<1, 64>>>(d, dw, w);
        cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        cudaMemcpy(hw, dw, sizeof hw, cudaMemcpyDeviceToHost);
        for (int t = 0; t < 64; t++) {
            int warp = t / 32 * 32, lane = t % 32, seg = lane / w * w, pos = lane % w;
            int idx = warp + seg + 5 % w;
            int up = pos >= 3 ? t - 3 : t;
            int down = pos + 3 < w ? t + 3 : t;
            int x = 1 + lane % 2 * 4 % w, xr = warp + (lane ^ x);
            bad += h[t * 4 + 0] != 1000 + idx;
            bad += h[t * 4 + 1] != 1000 + up;
            bad += h[t * 4 + 2] != 1000 + down;
            bad += h[t * 4 + 3] != 1000 + xr;
            bad += hw[t] != ((long long)(warp + (lane ^ 2)) << 40 | 7);
        }
        char fact[80];
        snprintf(fact, sizeof fact, "width %d: every lane got the value the rule names (wrong values)", w);
        check(fact, bad, 0);
    }
    cudaFree(d);
    cudaFree(dw);
    return 0;
}
