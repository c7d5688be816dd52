/* iota.h: a kernel that writes base + i to a[i], and a host count of the elements that hold it: the graph
   memory cases' proof that a graph's allocation was written and read back. */
#ifndef IOTA_H
#define IOTA_H

__global__ void iota(int *a, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = base + i;
}

static int count_iota(const int *h, int n, int base)
{
    int c = 0;
    for (int i = 0; i < n; i++) c += h[i] == base + i;
    return c;
}
#endif
