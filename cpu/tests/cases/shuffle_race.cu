// kernel feature: CUDAWB_SHUFFLE runs each block's threads in a random order, so a missing __syncthreads
// shows up as a wrong answer on the CPU backend every time (on a GPU it is a race that often goes unseen).
// test-env: CUDAWB_SHUFFLE=7
// test-gpu: skip (the racy kernel's result on a GPU is not deterministic)
#include "check.h"

/* each thread reads the value its left neighbour wrote: needs a barrier between the write and the read */
__global__ void shift_racy(const int *in, int *out)
{
    __shared__ int s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = in[i];
    if (threadIdx.x > 0) out[i] = s[threadIdx.x - 1];
}

__global__ void shift_fixed(const int *in, int *out)
{
    __shared__ int s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = in[i];
    __syncthreads();
    if (threadIdx.x > 0) out[i] = s[threadIdx.x - 1];
}

static int count_wrong(const int *h, int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (i % 256 != 0 && h[i] != 3 * (i - 1)) bad++;
    return bad;
}

int main(void)
{
    const int n = 256 * 64;
    static int h[256 * 64];
    int *d_in = NULL, *d_out = NULL;
    for (int i = 0; i < n; i++) h[i] = 3 * i;
    cudaMalloc(&d_in, sizeof h);
    cudaMalloc(&d_out, sizeof h);
    cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
    shift_racy<<<n / 256, 256>>>(d_in, d_out);
    cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
    check("with shuffled threads the missing barrier gives wrong values", count_wrong(h, n) > 0, 1);
    shift_fixed<<<n / 256, 256>>>(d_in, d_out);
    cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
    check("with __syncthreads the shuffled order gives the right values", count_wrong(h, n), 0);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
