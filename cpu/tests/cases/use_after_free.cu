// fact: Measured in this project (tests/gpu/measure-use-after-free.cu): a kernel reading device memory
// already freed. After cudaFree, 4 KiB or 256 KiB read without a fault (the driver keeps small allocations'
// pages mapped) and 1 MiB or more gave 700. After cudaFreeAsync queued ahead of the kernel on its stream,
// every size read without a fault (the pool keeps the pages until the synchronize); after cudaFreeAsync and
// a synchronize, 700.
// test-args: free-4096 | free-262144 | free-1048576 | free-67108864 | async-4096 | async-67108864 | async-synced-4096 | async-synced-1048576
#include <stdlib.h>
#include <string.h>
#include "check.h"

__global__ void read_all(const float *in, size_t n, float *out)
{
    float s = 0.0f;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        s += in[i];
    atomicAdd(out, s);
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "free-4096";
    const char *dash = strrchr(how, '-');
    size_t bytes = strtoull(dash + 1, NULL, 10);
    int expect = 0;
    float *keep = NULL, *out = NULL, *buf = NULL;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMalloc(&keep, 1 << 20);
    cudaMalloc(&out, sizeof(float));
    cudaMemset(out, 0, sizeof(float));
    if (strncmp(how, "free-", 5) == 0) {
        cudaMalloc(&buf, bytes);
        cudaMemset(buf, 0, bytes);
        cudaDeviceSynchronize();
        check("the free returns 0", cudaFree(buf), 0);
        expect = bytes >= (1 << 20) ? 700 : 0;
    } else {
        cudaMallocAsync(&buf, bytes, s);
        cudaMemsetAsync(buf, 0, bytes, s);
        check("the free returns 0", cudaFreeAsync(buf, s), 0);
        if (strncmp(how, "async-synced-", 13) == 0) {
            cudaStreamSynchronize(s);
            expect = 700;
        }
    }
    read_all<<<132, 256, 0, s>>>(buf, bytes / sizeof(float), out);
    check("the launch returns 0", cudaGetLastError(), 0);
    check("the synchronize after the read returns what the H200 gave", cudaStreamSynchronize(s), expect);
    return 0;
}
