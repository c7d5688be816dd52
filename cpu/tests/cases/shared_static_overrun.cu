// the memory checker: a write one element past a __shared__ array (the off-by-one of a tile load) is reported
// as compute-sanitizer reports it: kind, size, kernel and line, thread and block; that thread stops, and the
// kernel ends with 719 (unspecified launch failure) as under the real tool.
// test-sanitizer: --tool memcheck --error-exitcode 86
// test-status: 86
// test-stderr: Invalid __shared__ write of size 4 bytes
// test-stderr: at off_by_one.* in shared_static_overrun\.cu:15
// test-stderr: by thread \(255,0,0\) in block \(0,0,0\)
#include "check.h"

__global__ void off_by_one(const float *in, float *out)
{
    __shared__ float s[256];
    if (threadIdx.x > 0) s[threadIdx.x - 1] = 0.0f;
    s[threadIdx.x + 1] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

int main(void)
{
    float *in = NULL, *out = NULL;
    cudaMalloc(&in, 256 * sizeof(float));
    cudaMalloc(&out, 256 * sizeof(float));
    cudaMemset(in, 0, 256 * sizeof(float));
    off_by_one<<<1, 256>>>(in, out);
    check("the kernel ends with 719 (unspecified launch failure)", cudaDeviceSynchronize(), 719);
    return 0;
}
