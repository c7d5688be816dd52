// kernel feature: __constant__ memory written with cudaMemcpyToSymbol and a __device__ variable read back
// with cudaMemcpyFromSymbol.
#include "check.h"

__constant__ float coeffs[4];
__device__ float result;

__global__ void polynomial(float x)
{
    if (threadIdx.x == 0) result = coeffs[0] + x * (coeffs[1] + x * (coeffs[2] + x * coeffs[3]));
}

int main(void)
{
    float c[4] = {1.0f, 2.0f, 3.0f, 4.0f}, r = 0.0f;
    check("cudaMemcpyToSymbol returns 0", cudaMemcpyToSymbol(coeffs, c, sizeof c), 0);
    polynomial<<<1, 32>>>(2.0f);
    check("cudaMemcpyFromSymbol returns 0", cudaMemcpyFromSymbol(&r, result, sizeof r), 0);
    check("1 + 2x + 3x^2 + 4x^3 at x=2 is 49", (long long)r, 49);
    check("copying past the symbol returns 1", cudaMemcpyToSymbol(coeffs, c, sizeof c, 4), 1);
    cudaGetLastError();
    return 0;
}
