// kernel feature: __ballot_sync, __any_sync, __all_sync, __activemask in a branch, __match_any_sync,
// __match_all_sync and the __reduce_*_sync family, in a block of 48 threads (the second warp has 16 lanes);
// expected values computed on the host from the same lane formulas.
#include "check.h"

__global__ void votes(unsigned *out)
{
    int t = threadIdx.x, lane = t % 32;
    unsigned full = t < 32 ? 0xffffffffu : 0xffffu;
    unsigned *o = out + t / 32 * 16;
    unsigned ballot = __ballot_sync(full, lane % 3 == 0);
    int any = __any_sync(full, lane == 7), all = __all_sync(full, lane < 40), none = __any_sync(full, 0);
    unsigned active = 0;
    if (lane < 5) active = __activemask();
    unsigned group = __match_any_sync(full, lane / 8);
    int same = -1;
    unsigned all_eq = __match_all_sync(full, 42.5, &same);
    int differ = -1;
    unsigned all_ne = __match_all_sync(full, (long long)lane, &differ);
    unsigned sum = __reduce_add_sync(full, (unsigned)lane);
    int mn = __reduce_min_sync(full, 10 - lane), mx = __reduce_max_sync(full, 10 - lane);
    unsigned a = __reduce_and_sync(full, 0xf0u | lane), r = __reduce_or_sync(full, 1u << (lane % 4));
    unsigned x = __reduce_xor_sync(full, (unsigned)lane);
    __syncwarp(full);
    if (lane == 9) {
        o[0] = ballot; o[1] = any; o[2] = all; o[3] = none; o[4] = group; o[5] = all_eq; o[6] = same;
        o[7] = all_ne; o[8] = differ; o[9] = sum; o[10] = mn; o[11] = mx; o[12] = a; o[13] = r; o[14] = x;
    }
    if (lane == 3) o[15] = active;
}

int main(void)
{
    unsigned *d = NULL, h[32];
    cudaMalloc(&d, sizeof h);
    votes<<<1, 48>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int w = 0; w < 2; w++) {
        int lanes = w == 0 ? 32 : 16;
        unsigned ballot = 0, sum = 0, a = 0xffffffffu, r = 0, x = 0, full = lanes == 32 ? 0xffffffffu : 0xffffu;
        int mn = 1 << 30, mx = -(1 << 30);
        for (int l = 0; l < lanes; l++) {
            if (l % 3 == 0) ballot |= 1u << l;
            sum += l; a &= 0xf0u | l; r |= 1u << (l % 4); x ^= l;
            if (10 - l < mn) mn = 10 - l;
            if (10 - l > mx) mx = 10 - l;
        }
        const unsigned *o = h + w * 16;
        printf("warp %d (%d lanes):\n", w, lanes);
        check("  __ballot_sync of lane % 3 == 0", o[0], ballot);
        check("  __any_sync(lane == 7) is 1", o[1], 1);
        check("  __all_sync(lane < 40) is 1", o[2], 1);
        check("  __any_sync(0) is 0", o[3], 0);
        check("  __match_any_sync(lane / 8) at lane 9: lanes 8-15", o[4], 0xff00u);
        check("  __match_all_sync of one value: every lane", o[5], full);
        check("  ... and its predicate is 1", o[6], 1);
        check("  __match_all_sync of different values: 0", o[7], 0);
        check("  ... and its predicate is 0", o[8], 0);
        check("  __reduce_add_sync", o[9], sum);
        check("  __reduce_min_sync (int)", (int)o[10], mn);
        check("  __reduce_max_sync (int)", (int)o[11], mx);
        check("  __reduce_and_sync", o[12], a);
        check("  __reduce_or_sync", o[13], r);
        check("  __reduce_xor_sync", o[14], x);
        check("  __activemask() inside if (lane < 5): lanes 0-4", o[15], 0x1fu);
    }
    cudaFree(d);
    return 0;
}
