// the race checker: a block reduction with its barriers, a tiled transpose with its barrier, and a warp's
// exchange through shared memory ordered by __syncwarp report no hazard ("RACECHECK SUMMARY: 0 hazards
// displayed") and compute the right results.
// test-sanitizer: --tool racecheck --error-exitcode 86
// test-stderr: RACECHECK SUMMARY: 0 hazards displayed \(0 errors, 0 warnings\)
#include "check.h"
#include "shared_kernels.h"

// each lane passes its value to the lane before it through shared memory, within one warp
__global__ void rotate_warp(int *out)
{
    __shared__ int s[32];
    s[threadIdx.x] = (int)threadIdx.x * 10;
    __syncwarp();
    out[threadIdx.x] = s[(threadIdx.x + 1) % 32];
}

int main(void)
{
    const int n = 64;
    int h[512], sums[2], rot[32];
    float m[n * n], t[n * n];
    for (int i = 0; i < 512; i++) h[i] = i;
    for (int i = 0; i < n * n; i++) m[i] = (float)i;
    int *d_in = NULL, *d_out = NULL, *d_rot = NULL;
    float *d_m = NULL, *d_t = NULL;
    cudaMalloc(&d_in, sizeof h);
    cudaMalloc(&d_out, sizeof sums);
    cudaMalloc(&d_rot, sizeof rot);
    cudaMalloc(&d_m, sizeof m);
    cudaMalloc(&d_t, sizeof t);
    cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemcpy(d_m, m, sizeof m, cudaMemcpyHostToDevice);
    block_sum<<<2, 256>>>(d_in, d_out);
    transpose<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(d_m, d_t, n);
    rotate_warp<<<1, 32>>>(d_rot);
    check("the kernels run without error", cudaDeviceSynchronize(), 0);
    cudaMemcpy(sums, d_out, sizeof sums, cudaMemcpyDeviceToHost);
    cudaMemcpy(t, d_t, sizeof t, cudaMemcpyDeviceToHost);
    cudaMemcpy(rot, d_rot, sizeof rot, cudaMemcpyDeviceToHost);
    check("block 1 sums 256..511", sums[1], (256 + 511) * 256 / 2);
    check("the transpose moved (5, 40) to (40, 5)", (long long)t[40 * n + 5], 5 * n + 40);
    check("lane 31 got lane 0's value", rot[31], 0);
    check("lane 4 got lane 5's value", rot[4], 50);
    return 0;
}
