// Lesson 07: cuBLAS: one handle, column-major matrices, and the two out-of-memory errors.
//
//   gemm [M N K]                C = A B for row-major A (M x K) and B (K x N)
//                               (default 300 x 200 x 100), on cuBLAS in the program's own
//                               stream, and its checksum
//   gemm --budget BYTES M N K   the same product a block of rows at a time, never holding
//                               more than BYTES of device memory (an allocation that
//                               fails halves the block)
//   gemm --timed [N]            cublasSgemm against the naive kernel of kernels/gemm.cuh,
//                               N x N (4096)
//   gemm --probe                what cuBLAS answers at its edges
//
// Exit status: 0 success, 1 a CUDA or cuBLAS call failed (the out-of-memory contract),
// 2 a usage error.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>

#include "gemm.cuh"

#define TIMED_N 4096 // --timed's default: where the H200 measured cuBLAS 53x the
                     // naive kernel

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

// region: check
// Lesson 04's CHECK_CUDA, and its twin for cuBLAS, whose calls return a cublasStatus_t
// with names and strings of its own: CUBLAS_STATUS_ALLOC_FAILED is not
// cudaErrorMemoryAllocation, and the line says which library failed. Both jump to the
// function's cleanup label with status still 1.
#define CHECK_CUDA(call)                                                              \
    do {                                                                              \
        cudaError_t check_err_ = (call);                                              \
        if (check_err_ != cudaSuccess) {                                              \
            fprintf(stderr, "error: %s:%d: %s failed: %s: %s\n", base_name(__FILE__), \
                    __LINE__, #call,                                                  \
                    cudaGetErrorName(check_err_), cudaGetErrorString(check_err_));    \
            goto cleanup;                                                             \
        }                                                                             \
    } while (0)

#define CHECK_CUBLAS(call)                                                             \
    do {                                                                               \
        cublasStatus_t check_st_ = (call);                                             \
        if (check_st_ != CUBLAS_STATUS_SUCCESS) {                                      \
            fprintf(stderr, "error: %s:%d: %s failed: %s: %s\n", base_name(__FILE__),  \
                    __LINE__, #call,                                                   \
                    cublasGetStatusName(check_st_), cublasGetStatusString(check_st_)); \
            goto cleanup;                                                              \
        }                                                                              \
    } while (0)
// end region: check

// Fills row-major A (m x k) and B (k x n) with the lesson's values.
static void fill(float *a, float *b, size_t m, size_t n, size_t k)
{
    for (size_t i = 0; i < m; i++)
        for (size_t l = 0; l < k; l++)
            a[i * k + l] = a_value(i, l);
    for (size_t l = 0; l < k; l++)
        for (size_t j = 0; j < n; j++)
            b[l * n + j] = b_value(l, j);
}

// The weighted sum of row-major C (m x n), exact: its elements are whole numbers.
static long long checksum(const float *c, size_t m, size_t n)
{
    long long sum = 0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            sum += (long long)c[i * n + j] * checksum_weight(i, j);
    return sum;
}

// region: gemm
// C = A B on row-major arrays. cuBLAS reads matrices column-major, so it sees the
// row-major m x k array A as A^T (k x m, leading dimension k), and writing C^T
// column-major is writing C row-major. Hence C^T = B^T A^T: B first, then A, with the
// dimensions n, m, k. Here for `rows` rows of A and of C; returns 1 when the call failed.
static int gemm_rows(cublasHandle_t handle, const float *d_a, const float *d_b,
                     float *d_c, int rows, int n, int k)
{
    // Host scalars: the handle is in host pointer mode.
    const float one = 1.0f, zero = 0.0f;
    CHECK_CUBLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, rows, k, &one, d_b, n,
                             d_a, k, &zero, d_c, n));
    return 0;
cleanup:
    return 1; // CHECK_CUBLAS said why
}
// end region: gemm

static int multiply(int m, int n, int k)
{
    cublasHandle_t handle = NULL;
    cudaStream_t stream = NULL;
    float *h_a = NULL, *h_b = NULL, *h_c = NULL, *d_a = NULL, *d_b = NULL, *d_c = NULL;
    size_t a_bytes = (size_t)m * k * sizeof(float),
        b_bytes = (size_t)k * n * sizeof(float);
    size_t c_bytes = (size_t)m * n * sizeof(float);
    int status = 1;

    // region: handle
    // The handle first: the library takes its own device memory (about 68 MiB) here,
    // before the big buffers can leave too little; one handle serves every call. Its work
    // goes into our stream.
    CHECK_CUBLAS(cublasCreate(&handle));
    CHECK_CUDA(cudaStreamCreate(&stream));
    CHECK_CUBLAS(cublasSetStream(handle, stream));
    // end region: handle

    // Device memory before host memory: a product too large for the GPU fails
    // before any host work.
    CHECK_CUDA(cudaMalloc((void **)&d_a, a_bytes));
    CHECK_CUDA(cudaMalloc((void **)&d_b, b_bytes));
    CHECK_CUDA(cudaMalloc((void **)&d_c, c_bytes));
    // Pinned host memory: the async copies below then really run in the stream,
    // without staging.
    CHECK_CUDA(cudaMallocHost((void **)&h_a, a_bytes));
    CHECK_CUDA(cudaMallocHost((void **)&h_b, b_bytes));
    CHECK_CUDA(cudaMallocHost((void **)&h_c, c_bytes));
    fill(h_a, h_b, m, n, k);

    // region: transfers
    // Row-major A is column-major A^T: k rows (of the column-major view) of m
    // columns, as it lies.
    CHECK_CUBLAS(cublasSetMatrixAsync(k, m, sizeof(float), h_a, k, d_a, k, stream));
    CHECK_CUBLAS(cublasSetMatrixAsync(n, k, sizeof(float), h_b, n, d_b, n, stream));
    if (gemm_rows(handle, d_a, d_b, d_c, m, n, k) != 0)
        goto cleanup;
    CHECK_CUBLAS(cublasGetMatrixAsync(n, m, sizeof(float), d_c, n, h_c, n, stream));
    // The copy back is queued, not done: wait for the stream before reading h_c.
    CHECK_CUDA(cudaStreamSynchronize(stream));
    // end region: transfers

    printf("C = A B for A %d x %d and B %d x %d, on cuBLAS\n", m, k, k, n);
    printf("checksum: %lld\n", checksum(h_c, m, n));
    status = 0;

cleanup:
    // region: cleanup
    // Every path ends here: what was never allocated is NULL, and
    // cudaFree(NULL) does nothing.
    cudaFreeHost(h_a);
    cudaFreeHost(h_b);
    cudaFreeHost(h_c);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    if (handle != NULL)
        cublasDestroy(handle); // once: destroying a handle twice aborts the process
    if (stream != NULL)
        cudaStreamDestroy(stream);
    // end region: cleanup
    return status;
}

// region: budget
// The same product when A, B and C do not fit: B stays on the device, and A and C pass
// through in blocks of rows, as many as the budget allows (the smaller of BYTES and what
// cudaMemGetInfo says is free). An allocation that fails for lack of memory frees what
// this attempt took and halves the block.
static int multiply_in_blocks(size_t budget, int m, int n, int k)
{
    cublasHandle_t handle = NULL;
    cudaStream_t stream = NULL;
    float *h_a = NULL, *h_b = NULL, *h_c = NULL, *d_a = NULL, *d_b = NULL, *d_c = NULL;
    size_t b_bytes = (size_t)k * n * sizeof(float),
        row_bytes = (size_t)(k + n) * sizeof(float);
    size_t free_bytes = 0, total_bytes = 0, rows = 0, blocks = 0;
    cudaError_t err;
    int status = 1;

    CHECK_CUBLAS(cublasCreate(&handle));
    CHECK_CUDA(cudaStreamCreate(&stream));
    CHECK_CUBLAS(cublasSetStream(handle, stream));
    CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (budget > free_bytes)
        budget = free_bytes;
    if (budget < b_bytes + row_bytes) {
        fprintf(stderr, "error: a budget of %zu bytes cannot hold B (%zu bytes) "
                        "and one row of A and C\n",
                budget, b_bytes);
        goto cleanup;
    }
    rows = (budget - b_bytes) / row_bytes;
    if (rows > (size_t)m)
        rows = (size_t)m;

    CHECK_CUDA(cudaMalloc((void **)&d_b, b_bytes));
    for (;;) {
        int at = __LINE__ + 1; // the line of the call that failed, for the error line
        err = cudaMalloc((void **)&d_a, rows * k * sizeof(float));
        if (err == cudaSuccess) {
            at = __LINE__ + 1;
            err = cudaMalloc((void **)&d_c, rows * n * sizeof(float));
        }
        if (err == cudaSuccess)
            break;
        if (err != cudaErrorMemoryAllocation || rows == 1) {
            fprintf(stderr,
                    "error: %s:%d: cudaMalloc for a block of %zu rows failed: %s: %s\n",
                    base_name(__FILE__), at, rows, cudaGetErrorName(err),
                    cudaGetErrorString(err));
            goto cleanup;
        }
        // Out of memory: give back this attempt's buffer, forget the error, and try
        // half as many rows.
        cudaFree(d_a);
        d_a = NULL;
        cudaGetLastError();
        rows /= 2;
    }
    CHECK_CUDA(cudaMallocHost((void **)&h_a, (size_t)m * k * sizeof(float)));
    CHECK_CUDA(cudaMallocHost((void **)&h_b, b_bytes));
    CHECK_CUDA(cudaMallocHost((void **)&h_c, (size_t)m * n * sizeof(float)));
    fill(h_a, h_b, m, n, k);

    CHECK_CUBLAS(cublasSetMatrixAsync(n, k, sizeof(float), h_b, n, d_b, n, stream));
    // The last block is what is left: m need not be a multiple of rows.
    for (size_t first = 0; first < (size_t)m; first += rows, blocks++) {
        int count = (int)((size_t)m - first < rows ? (size_t)m - first : rows);
        CHECK_CUBLAS(cublasSetMatrixAsync(k, count, sizeof(float), h_a + first * k, k,
                                          d_a, k, stream));
        if (gemm_rows(handle, d_a, d_b, d_c, count, n, k) != 0)
            goto cleanup;
        CHECK_CUBLAS(cublasGetMatrixAsync(n, count, sizeof(float), d_c, n,
                                          h_c + first * n, n, stream));
    }
    CHECK_CUDA(cudaStreamSynchronize(stream));

    printf("C = A B for A %d x %d and B %d x %d, %zu rows at a time in %zu blocks\n",
           m, k, k, n, rows, blocks);
    printf("checksum: %lld\n", checksum(h_c, m, n));
    status = 0;

cleanup:
    cudaFreeHost(h_a);
    cudaFreeHost(h_b);
    cudaFreeHost(h_c);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    if (handle != NULL)
        cublasDestroy(handle);
    if (stream != NULL)
        cudaStreamDestroy(stream);
    return status;
}
// end region: budget

// region: timed
// The naive kernel and cublasSgemm on the same n x n matrices, each timed with events in
// the stream; the two results must agree to the bit (whole numbers). cuBLAS runs once
// untimed first: its first call loads its kernels.
static int timed(int n)
{
    cublasHandle_t handle = NULL;
    cudaStream_t stream = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    float *h_a = NULL, *h_b = NULL, *h_c = NULL, *h_ref = NULL,
        *d_a = NULL, *d_b = NULL, *d_c = NULL;
    size_t bytes = (size_t)n * n * sizeof(float);
    float naive_ms = 0.0f, cublas_ms = 0.0f;
    dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
    int status = 1;

    CHECK_CUBLAS(cublasCreate(&handle));
    CHECK_CUDA(cudaStreamCreate(&stream));
    CHECK_CUBLAS(cublasSetStream(handle, stream));
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));
    CHECK_CUDA(cudaMalloc((void **)&d_a, bytes));
    CHECK_CUDA(cudaMalloc((void **)&d_b, bytes));
    CHECK_CUDA(cudaMalloc((void **)&d_c, bytes));
    CHECK_CUDA(cudaMallocHost((void **)&h_a, bytes));
    CHECK_CUDA(cudaMallocHost((void **)&h_b, bytes));
    CHECK_CUDA(cudaMallocHost((void **)&h_c, bytes));
    CHECK_CUDA(cudaMallocHost((void **)&h_ref, bytes));
    fill(h_a, h_b, n, n, n);
    CHECK_CUBLAS(cublasSetMatrixAsync(n, n, sizeof(float), h_a, n, d_a, n, stream));
    CHECK_CUBLAS(cublasSetMatrixAsync(n, n, sizeof(float), h_b, n, d_b, n, stream));

    CHECK_CUDA(cudaEventRecord(start, stream));
    naive_sgemm<<<grid, block, 0, stream>>>(d_a, d_b, d_c, n, n, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaEventRecord(stop, stream));
    CHECK_CUDA(cudaEventSynchronize(stop));
    CHECK_CUDA(cudaEventElapsedTime(&naive_ms, start, stop));
    CHECK_CUDA(cudaMemcpyAsync(h_ref, d_c, bytes, cudaMemcpyDeviceToHost, stream));

    if (gemm_rows(handle, d_a, d_b, d_c, n, n, n) != 0) // untimed: loads cuBLAS's kernels
        goto cleanup;
    CHECK_CUDA(cudaEventRecord(start, stream));
    if (gemm_rows(handle, d_a, d_b, d_c, n, n, n) != 0)
        goto cleanup;
    CHECK_CUDA(cudaEventRecord(stop, stream));
    CHECK_CUDA(cudaEventSynchronize(stop));
    CHECK_CUDA(cudaEventElapsedTime(&cublas_ms, start, stop));
    CHECK_CUBLAS(cublasGetMatrixAsync(n, n, sizeof(float), d_c, n, h_c, n, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));

    printf("naive kernel and cublasSgemm on %d x %d floats agree: %s\n", n, n,
           memcmp(h_c, h_ref, bytes) == 0 ? "yes" : "no");
    printf("naive: %.3f ms, cublasSgemm: %.3f ms, speed-up: %.1fx\n", naive_ms, cublas_ms,
           cublas_ms > 0.0f ? naive_ms / cublas_ms : 0.0f);
    status = 0;

cleanup:
    cudaFreeHost(h_a);
    cudaFreeHost(h_b);
    cudaFreeHost(h_c);
    cudaFreeHost(h_ref);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    if (start != NULL)
        cudaEventDestroy(start);
    if (stop != NULL)
        cudaEventDestroy(stop);
    if (handle != NULL)
        cublasDestroy(handle);
    if (stream != NULL)
        cudaStreamDestroy(stream);
    return status;
}
// end region: timed

// region: probe
// What cuBLAS returns at its edges, each answer the status name of the call just made.
// These failures are the questions, not errors: the program goes on.
static int probe(void)
{
    cublasHandle_t handle = NULL;
    float *d = NULL, host[8] = {0}, one = 1.0f;
    int status = 1;

    CHECK_CUBLAS(cublasCreate(&handle));
    CHECK_CUDA(cudaMalloc((void **)&d, 64 * sizeof(float)));
    printf("cublasSetMatrix of 4 x 2 floats with lda 2: %s\n",
           cublasGetStatusName(cublasSetMatrix(4, 2, sizeof(float), host, 2, d, 4)));
    printf("cublasSetVector with incy 0: %s\n",
           cublasGetStatusName(cublasSetVector(4, sizeof(float), host, 1, d, 0)));
    printf("cublasSgemm with m = -1: %s\n",
           cublasGetStatusName(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, -1, 2, 2,
                                           &one, d, 2, d, 2, &one, d, 2)));
    printf("cublasSgemm with k = 0: %s\n",
           cublasGetStatusName(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 0,
                                           &one, d, 2, d, 2, &one, d, 2)));
    printf("cublasSgemm on a NULL handle: %s\n",
           cublasGetStatusName(cublasSgemm(NULL, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2,
                                           &one, d, 2, d, 2, &one, d, 2)));
    CHECK_CUDA(cudaDeviceSynchronize());
    status = 0;

cleanup:
    cudaFree(d);
    if (handle != NULL)
        cublasDestroy(handle);
    return status;
}
// end region: probe

// A positive int, or -1.
static int dimension(const char *s)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    return (end != s && *end == '\0' && v > 0 && v <= 1000000) ? (int)v : -1;
}

int main(int argc, char **argv)
{
    int m = 300, n = 200, k = 100;
    if (argc == 2 && strcmp(argv[1], "--probe") == 0)
        return probe();
    if (argc >= 2 && strcmp(argv[1], "--timed") == 0) {
        int size = argc == 3 ? dimension(argv[2]) : TIMED_N;
        if (argc > 3 || size < 1) {
            fprintf(stderr, "usage: %s --timed [N]\n", argv[0]);
            return 2;
        }
        return timed(size);
    }
    if (argc == 6 && strcmp(argv[1], "--budget") == 0) {
        char *end = NULL;
        unsigned long long budget = strtoull(argv[2], &end, 10);
        m = dimension(argv[3]), n = dimension(argv[4]), k = dimension(argv[5]);
        if (*end != '\0' || budget == 0 || m < 1 || n < 1 || k < 1) {
            fprintf(stderr, "usage: %s --budget BYTES M N K\n", argv[0]);
            return 2;
        }
        return multiply_in_blocks((size_t)budget, m, n, k);
    }
    if (argc == 4) {
        m = dimension(argv[1]), n = dimension(argv[2]), k = dimension(argv[3]);
    } else if (argc != 1) {
        m = -1;
    }
    if (m < 1 || n < 1 || k < 1) {
        fprintf(stderr,
                "usage: %s [M N K | --budget BYTES M N K | --timed [N] | --probe]\n",
                argv[0]);
        return 2;
    }
    return multiply(m, n, k);
}
