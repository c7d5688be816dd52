// fact: Measured in this project (tests/gpu/measure-use-after-free.cu): under compute-sanitizer's memcheck,
// every read of freed device memory is reported as "Invalid __global__ read of size 4 bytes", even where the
// plain run reads it without a fault: 4 KiB freed by cudaFree, or by cudaFreeAsync queued ahead of the kernel.
// The kernel ends with 719.
// test-args: free | async
// test-sanitizer: --tool memcheck --error-exitcode 9
// test-status: 9
// test-stderr: Invalid __global__ read
#include <string.h>
#include "check.h"

__global__ void read_one(const float *in, float *out)
{
    *out = in[threadIdx.x];
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "free";
    float *out = NULL, *buf = NULL;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMalloc(&out, sizeof(float));
    if (strcmp(how, "free") == 0) {
        cudaMalloc(&buf, 4096);
        cudaFree(buf);
    } else {
        cudaMallocAsync(&buf, 4096, s);
        cudaFreeAsync(buf, s);
    }
    read_one<<<1, 1, 0, s>>>(buf, out);
    check("the synchronize after the read returns 719", cudaStreamSynchronize(s), 719);
    return 0;
}
