// fact: A misaligned access inside a kernel (a float read two bytes into an allocation, a float written one
// byte in, a double read four bytes in) gives 716 cudaErrorMisalignedAddress "misaligned address" at the next
// synchronizing call, sticky as 700 is: cudaGetLastError returns it once, every later call returns it. A CPU
// would carry on; the CPU backend faults as the GPU does. Aligned accesses of the same kernel run.
// test-args: read | write | double | aligned
#include <string.h>
#include "check.h"

template <typename T> __global__ void touch(char *buf, int byte, int write, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    T *p = (T *)(buf + (i == 0 ? byte : 64 + i * sizeof(T)));
    if (write) *p = (T)1;
    else out[i] = (float)*p;
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "read";
    char *buf = NULL;
    float *out = NULL;
    cudaMalloc(&buf, 4096);
    cudaMalloc(&out, 64 * sizeof(float));
    cudaMemset(buf, 0, 4096);
    if (strcmp(how, "read") == 0) touch<float><<<1, 32>>>(buf, 2, 0, out);
    else if (strcmp(how, "write") == 0) touch<float><<<1, 32>>>(buf, 1, 1, out);
    else if (strcmp(how, "double") == 0) touch<double><<<1, 32>>>(buf, 4, 0, out);
    else touch<float><<<1, 32>>>(buf, 8, 0, out);
    int want = strcmp(how, "aligned") == 0 ? 0 : 716;
    check("the launch itself reports nothing", cudaGetLastError(), 0);
    cudaError_t e = cudaDeviceSynchronize();
    check("the next synchronize returns 716 (0 when aligned)", e, want);
    check("its string is \"misaligned address\" (\"no error\")",
          strcmp(cudaGetErrorString(e), want ? "misaligned address" : "no error"), 0);
    check("cudaGetLastError returns it", cudaGetLastError(), want);
    check("then 0", cudaGetLastError(), 0);
    check("cudaFree returns it", cudaFree(buf), want);
    return 0;
}
