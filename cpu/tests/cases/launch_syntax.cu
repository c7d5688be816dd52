// kernel feature: launch syntax the rewriter must get right: namespaces, explicit and deduced template
// arguments (with '>' inside parentheses), a launch in a macro, through a function pointer, in an if without
// braces, with nested calls and shifts in the configuration and arguments, and "<<<" inside strings and comments.
#include "check.h"

#define N 64
#define LAUNCH(kernel, grid, block, ...) kernel<<<grid, block>>>(__VA_ARGS__)

namespace wb {
__global__ void add(int *a, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += v;
}
}

template <int V, typename T> __global__ void add_const(T *a) { a[threadIdx.x] += V; }
template <typename T> __global__ void add_deduced(T *a, T v) { a[threadIdx.x] += v; }

static int blocks_for(int n, int block) { return (n + block - 1) / block; }

int main(void)
{
    int *d = NULL, h[N];
    const char *note = "k<<<1,1>>>(x) in a string is not a launch";
    void (*fp)(int *, int, int) = wb::add;
    cudaStream_t s = 0;
    cudaMalloc(&d, sizeof h);
    cudaMemset(d, 0, sizeof h);
    /* k<<<1,1>>>(x) in a comment is not a launch either */
    wb::add<<<blocks_for(N, 32), 32>>>(d, N, 1);                  /* +1 */
    add_const<(N > 8) + 1, int><<<dim3(1), dim3(N), 0, s>>>(d);  /* +2 */
    add_deduced<<<1, N>>>(d, 1 << 2);                           /* +4 */
    LAUNCH(wb::add, 1, N, d, N, 8);                             /* +8 */
    fp<<<(N >> 5), 32>>>(d, N, 16);                             /* +16 */
    if (note[0] == 'k')
        (wb::add)<<<1, N>>>(d, N, 32);                          /* +32 */
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += h[i] != 63;
    check("every launch ran once: each element is 1+2+4+8+16+32", bad, 0);
    check("no launch error", cudaGetLastError(), 0);
    cudaFree(d);
    return 0;
}
