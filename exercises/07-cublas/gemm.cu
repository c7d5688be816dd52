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
// Your work is at the TODO markers; lessons/07-cublas.md explains why. Grade it:
// make check LESSON=7
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

#define CHECK_CUBLAS(call)                                                              \
    do {                                                                                \
        if ((call) != CUBLAS_STATUS_SUCCESS) {                                          \
            /* TODO(step 11): print CHECK_CUDA's line with cuBLAS's own name and        \
             * string for the status (cublasGetStatusName, cublasGetStatusString;       \
             * keep the status in a variable, as CHECK_CUDA does), and goto cleanup. */ \
        }                                                                               \
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
    /* TODO(step 2): C^T = B^T A^T with cublasSgemm, checked with CHECK_CUBLAS: no
     * transposes, dimensions n, rows, k, alpha 1 and beta 0 (host scalars), each leading
     * dimension the length of a column of cuBLAS's column-major view of the array.
     * CHECK_CUBLAS jumps to a cleanup: label: give gemm_rows one, after this return 0,
     * that returns 1. */
    (void)handle, (void)d_a, (void)d_b, (void)d_c, (void)rows, (void)n, (void)k;
    return 0;
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
    /* TODO(step 3): create the handle, then the stream, and give the stream to the handle
     * (cublasSetStream). */
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
    /* TODO(step 2): copy h_a into d_a and h_b into d_b with cublasSetMatrixAsync in
     * the stream (row-major A is column-major A^T: k rows of m columns, leading
     * dimension k). */
    if (gemm_rows(handle, d_a, d_b, d_c, m, n, k) != 0)
        goto cleanup;
    /* TODO(step 2): copy d_c back into h_c with cublasGetMatrixAsync, then wait for the
     * stream (step 4). */
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
    /* TODO(step 7): destroy the handle, if one was created (once: destroying a handle
     * twice aborts the process). */
    (void)handle;
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
    /* TODO(step 9): allocate d_a (rows x k floats) and d_c (rows x n floats). When one of
     * them fails with cudaErrorMemoryAllocation and rows > 1: free what this attempt got,
     * clear the error (cudaGetLastError), halve rows and try again. Any other failure:
     * report it and goto cleanup. */
    CHECK_CUDA(cudaMallocHost((void **)&h_a, (size_t)m * k * sizeof(float)));
    CHECK_CUDA(cudaMallocHost((void **)&h_b, b_bytes));
    CHECK_CUDA(cudaMallocHost((void **)&h_c, (size_t)m * n * sizeof(float)));
    fill(h_a, h_b, m, n, k);

    CHECK_CUBLAS(cublasSetMatrixAsync(n, k, sizeof(float), h_b, n, d_b, n, stream));
    /* TODO(step 9): for each block of `rows` rows of A (the last block is what is left: m
     * need not be a multiple of rows): copy it into d_a, gemm_rows it into d_c, copy d_c
     * into its rows of h_c; count the blocks. */
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

    /* TODO(step 10): the same product with gemm_rows, once untimed (the first call loads
     * cuBLAS's kernels), then timed as the naive kernel is, into cublas_ms; copy d_c into
     * h_c (cublasGetMatrixAsync) and wait for the stream. */

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
    float *d = NULL; // and, for the questions, a host array of 8 floats
                     // and a float one = 1.0f
    int status = 1;

    CHECK_CUBLAS(cublasCreate(&handle));
    CHECK_CUDA(cudaMalloc((void **)&d, 64 * sizeof(float)));
    /* TODO(step 5): ask each question of cuBLAS and print the status name it returns, one
     * line each, in this order: "cublasSetMatrix of 4 x 2 floats with lda 2: "
     * (from host into d, ldb 4), "cublasSetVector with incy 0: " (4 floats),
     * "cublasSgemm with m = -1: ", "cublasSgemm with k = 0: "
     * (m = n = 2, alpha = beta = &one, every matrix d with leading dimension 2),
     * "cublasSgemm on a NULL handle: ". */
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
