// fact: Under the memory checker a misaligned float read in a kernel is reported as an invalid read of 4 bytes
// at its kernel and line, by its thread, at a misaligned address; the kernel ends with 719 "unspecified launch
// failure", as an out-of-bounds access under the checker does (H200, compute-sanitizer 2025.3: "Access to 0x...
// is misaligned", "and is inside the nearest allocation at 0x... of size 4,096 bytes").
// test-sanitizer: --error-exitcode 86
// test-status: 86
// test-stderr: Invalid __global__ read of size 4 bytes
// test-stderr: at .*misread.* in misaligned_memcheck.cu:18
// test-stderr: by thread \(0,0,0\) in block \(0,0,0\)
// test-stderr: Access to 0x[0-9a-f]+ is misaligned
// test-stderr: and is inside the nearest allocation at 0x[0-9a-f]+ of size 4,?096 bytes
#include "check.h"

__global__ void misread(const char *buf, float *out)
{
    int i = threadIdx.x;
    const float *p = (const float *)(buf + (i == 0 ? 2 : 64 + 4 * i));
    out[i] = *p;
}

int main(void)
{
    char *buf = NULL;
    float *out = NULL;
    cudaMalloc(&buf, 4096);
    cudaMalloc(&out, 32 * sizeof(float));
    misread<<<1, 32>>>(buf, out);
    check("the kernel ends with 719", cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    return 0;
}
