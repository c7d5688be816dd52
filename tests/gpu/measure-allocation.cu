// Measures, on a real GPU, the allocation facts that lesson 01 and its grader rely on but that
// facts/gpu-facts.md does not list. Prints one line per fact; tests/gpu/README.md records what an H200 printed.
#include <stdio.h>
#include <cuda_runtime.h>

static void show(const char *what, cudaError_t err)
{
    printf("%-58s %d %s; last error then %d\n", what, (int)err, cudaGetErrorName(err), (int)cudaGetLastError());
}

int main(void)
{
    void *d1 = NULL, *d4000 = NULL, *d4m = NULL, *h = NULL;
    size_t f0, f1, f2, f3, total;
    unsigned int word = 0;

    cudaMemGetInfo(&f0, &total);
    show("cudaMalloc 1 byte", cudaMalloc(&d1, 1));
    show("cudaMemset 4 bytes into a 1-byte allocation", cudaMemset(d1, 0, 4));
    show("cudaMemcpy D2H 4 bytes from a 1-byte allocation", cudaMemcpy(&word, d1, 4, cudaMemcpyDeviceToHost));
    show("cudaMemcpy D2H 1 byte from a 1-byte allocation", cudaMemcpy(&word, d1, 1, cudaMemcpyDeviceToHost));
    cudaMemGetInfo(&f1, &total);
    show("cudaMalloc 4000 bytes", cudaMalloc(&d4000, 4000));
    show("cudaMemset 16000 bytes into a 4000-byte allocation", cudaMemset(d4000, 0, 16000));
    cudaMemGetInfo(&f2, &total);
    show("cudaMalloc 4000000 bytes", cudaMalloc(&d4m, 4000000));
    show("cudaMemset 16000000 bytes into a 4000000-byte allocation", cudaMemset(d4m, 0, 16000000));
    cudaMemGetInfo(&f3, &total);
    printf("free drop: 1-byte alloc %zd, 4000-byte alloc %zd, 4000000-byte alloc %zd (total %zu)\n",
           (ssize_t)(f0 - f1), (ssize_t)(f1 - f2), (ssize_t)(f2 - f3), total);
    show("cudaMallocHost 2^50 bytes", cudaMallocHost(&h, (size_t)1 << 50));
    printf("pointer after failed cudaMallocHost: %s\n", h == NULL ? "NULL" : "not NULL");
    show("cudaMalloc 2^60 bytes", cudaMalloc(&h, (size_t)1 << 60));
    show("cudaFree of an interior pointer", cudaFree((char *)d4m + 256));
    show("cudaFree d1", cudaFree(d1));
    show("cudaFree d4000", cudaFree(d4000));
    show("cudaFree d4m", cudaFree(d4m));
    return 0;
}
