// Measures what a misaligned access in a kernel does on a real GPU, for the CPU backend to reproduce. A sticky
// error ends the context, so each case runs in its own process, plainly and under the memory checker:
//   nvcc -arch=native -g -o /tmp/m/misaligned tests/gpu/measure-misaligned.cu
//   for c in read write double aligned; do /tmp/m/misaligned $c; echo "rc=$?"; done
//   compute-sanitizer --tool memcheck /tmp/m/misaligned read
// Prints one line per fact; tests/gpu/README.md is where to record what the GPU printed.
#include <stdio.h>
#include <string.h>
#include <cuda_runtime.h>

static void show(const char *what, cudaError_t err)
{
    printf("%-48s %d %s\n", what, (int)err, cudaGetErrorName(err));
    fflush(stdout);
}

// Thread 0 of block 0 reads or writes a T at BYTE bytes into the buffer; the other threads stay aligned.
template <typename T> __global__ void touch(char *buf, int byte, int write, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    T *p = (T *)(buf + (i == 0 ? byte : 64 + i * sizeof(T)));
    if (write) *p = (T)1;
    else out[i] = (float)*p;
}

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "read";
    char *buf = NULL;
    float *out = NULL;
    show("cudaMalloc 4096", cudaMalloc((void **)&buf, 4096));
    show("cudaMalloc out", cudaMalloc((void **)&out, 64 * sizeof(float)));
    cudaMemset(buf, 0, 4096);
    if (strcmp(c, "read") == 0) touch<float><<<1, 32>>>(buf, 2, 0, out);
    else if (strcmp(c, "write") == 0) touch<float><<<1, 32>>>(buf, 1, 1, out);
    else if (strcmp(c, "double") == 0) touch<double><<<1, 32>>>(buf, 4, 0, out);
    else touch<float><<<1, 32>>>(buf, 8, 0, out);
    show("cudaGetLastError after the launch", cudaGetLastError());
    show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    show("cudaGetLastError", cudaGetLastError());
    show("cudaGetLastError again", cudaGetLastError());
    show("cudaFree", cudaFree(buf));
    show("cudaFree(NULL)", cudaFree(NULL));
    return 0;
}
