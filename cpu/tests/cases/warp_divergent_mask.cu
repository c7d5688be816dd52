// the memory checker: a warp primitive whose mask names lanes that wait at __syncthreads instead (a GPU
// would hang or compute garbage) is reported as synccheck reports it, naming the kernel, line and thread;
// lanes that exited are allowed (CUDA: "non-exited threads named in mask").
// test-sanitizer: --error-exitcode 86
// test-status: 86
// test-stderr: Barrier error detected. Divergent thread\(s\) in warp
// test-stderr: at diverge in warp_divergent_mask.cu:17
// test-stderr: by thread \(0,0,0\) in block \(0,0,0\)
// test-stderr: ERROR SUMMARY: 1 error
// test-gpu: skip (on a GPU this program may hang: the CPU backend's own report)
#include "check.h"

__global__ void diverge(int *out)
{
    int v = threadIdx.x;
    if (threadIdx.x < 16)
        v = __shfl_xor_sync(0xffffffff, v, 1);
    __syncthreads();
    out[threadIdx.x] = v;
}

__global__ void exited(int *out)
{
    if (threadIdx.x >= 8) return;
    out[threadIdx.x] = __reduce_add_sync(0xffffffff, 1);
}

int main(void)
{
    int *d = NULL, h[32];
    cudaMalloc(&d, sizeof h);
    diverge<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    check("lanes that diverged from the warp primitive still reach the next line", h[31], 31);
    exited<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    check("the lanes left after the others exited sum 8", h[0], 8);
    cudaFree(d);
    return 0;
}
