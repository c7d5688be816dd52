// the race checker: the unrolled last warp of a reduction through a volatile pointer (warp-synchronous code
// without __syncwarp, which Volta and later no longer run in lockstep): each lane reads the partial sum
// another lane of its warp writes, hazards compute-sanitizer ranks as warnings. The rewriter follows volatile
// pointers in device code, which point to shared memory in CUDA code like this. The real tool names the device
// function (last_warp), this checker the kernel; warnings alone make the exit status --error-exitcode's there.
// test-sanitizer: --tool racecheck --error-exitcode 86
// test-status: 86
// test-stderr: Warning: Race reported between (Read|Write) access at (reduce_tail|last_warp).* in race_warp_volatile\.cu:(1[5-9]|20)
// test-stderr: and (Read|Write) access at (reduce_tail|last_warp).* in race_warp_volatile\.cu:(1[5-9]|20) \[[0-9]+ hazards?\]
// test-stderr: RACECHECK SUMMARY: [1-9][0-9]* hazards? displayed \(0 errors, [1-9][0-9]* warnings?\)
#include "check.h"

__device__ void last_warp(volatile int *s, unsigned t)
{
    s[t] += s[t + 32];
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
}

__global__ void reduce_tail(const int *in, int *out)
{
    extern __shared__ int sdata[];
    unsigned t = threadIdx.x;
    sdata[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (t < stride) sdata[t] += sdata[t + stride];
        __syncthreads();
    }
    if (t < 32) last_warp(sdata, t);
    if (t == 0) out[blockIdx.x] = sdata[0];
}

int main(void)
{
    int *in = NULL, *out = NULL;
    cudaMalloc(&in, 2 * 128 * sizeof(int));
    cudaMalloc(&out, 2 * sizeof(int));
    cudaMemset(in, 0, 2 * 128 * sizeof(int));
    reduce_tail<<<2, 128, 128 * sizeof(int)>>>(in, out);
    check("the kernel runs", cudaDeviceSynchronize(), 0);
    return 0;
}
