// Lesson 08: beyond cudaMalloc: stream-ordered allocation and memory pools, mapped
// (zero-copy) and registered host memory, and which calls make the host wait for the GPU.
//
//   pipeline [n]          n floats (default 1000000) through a pipeline of chunks on one
//                         stream: each chunk gets its scratch from cudaMallocAsync and
//                         gives it back with cudaFreeAsync
//   pipeline --host [n]   the same transform on host memory the GPU reads and writes in
//                         place: mapped pinned memory (cudaHostAlloc), then a malloc
//                         buffer registered with cudaHostRegister
//   pipeline --probe      what stream-ordered allocation and host registration return at
//                         their edges
//   pipeline --timed [n]  the pipeline with cudaMalloc/cudaFree per chunk, then
//                         stream-ordered, timed (n floats, default 2^24)
//
// Exit status: 0 success, 1 a CUDA call failed (the out-of-memory contract),
// 2 a usage error.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "pipeline.cuh"

#define THREADS 256
#define TIMED_N ((size_t)1 << 24) // 2^24 floats, 256 chunks: many small allocations
                                  // (and a trace short enough to grade)

// region: failed
// The out-of-memory contract's one line on stderr: which call failed, on how many
// bytes, and why. Returns 1 when err is an error, so that a call and its check fit
// in one condition.
static int failed(const char *call, size_t bytes, cudaError_t err)
{
    if (err == cudaSuccess)
        return 0;
    if (bytes > 0)
        fprintf(stderr, "error: %s of %zu bytes failed: %s\n", call, bytes,
                cudaGetErrorString(err));
    else
        fprintf(stderr, "error: %s failed: %s\n", call, cudaGetErrorString(err));
    return 1;
}
// end region: failed

// The input the host writes, and what the transform makes of it (kernels/pipeline.cuh).
static void fill_input(float *in, size_t n)
{
    for (size_t i = 0; i < n; i++)
        in[i] = (float)(i % 7);
}

static size_t count_expected(const float *out, size_t n, double *sum)
{
    size_t good = 0;
    for (size_t i = 0; i < n; i++) {
        float x = (float)(i % 7);
        good += out[i] == x * x + (float)(i % 3);
        if (sum != NULL)
            *sum += out[i];
    }
    return good;
}

// region: pool
// The default pool gives memory freed with cudaFreeAsync back to the device at the next
// synchronize (its release threshold is 0), so the next cudaMallocAsync after one asks
// the driver again. A threshold as large as the pipeline needs keeps that memory in the
// pool for the next pipeline to reuse.
static int keep_freed_memory(cudaMemPool_t *pool)
{
    uint64_t keep = UINT64_MAX;
    return failed("cudaDeviceGetDefaultMemPool", 0,
                  cudaDeviceGetDefaultMemPool(pool, 0)) ||
           failed("cudaMemPoolSetAttribute", 0,
                  cudaMemPoolSetAttribute(*pool, cudaMemPoolAttrReleaseThreshold, &keep));
}
// end region: pool

// Gives a chunk's scratch back the way it was taken: in stream order, or with
// cudaFree, which waits.
static cudaError_t release_chunk(float *d_chunk, cudaStream_t stream, int ordered)
{
    return ordered ? cudaFreeAsync(d_chunk, stream) : cudaFree(d_chunk);
}

// Queues the whole of h_in through the GPU on stream, CHUNK floats at a time: each chunk
// is copied into scratch memory of its own, transformed into d_out, and its scratch
// released. ordered: the scratch comes from cudaMallocAsync and goes back with
// cudaFreeAsync, on the stream, so the host queues chunk after chunk without waiting;
// otherwise from cudaMalloc and cudaFree, the way this pipeline is usually first written.
// Returns 1 when a call failed (having released the chunk it held).
static int pipeline(const float *h_in, float *d_out, size_t n, cudaStream_t stream,
                    int ordered)
{
    for (size_t offset = 0; offset < n; offset += CHUNK) {
        size_t count = n - offset < CHUNK ? n - offset : CHUNK,
            bytes = count * sizeof(float);
        float *d_chunk = NULL;
        // region: chunk-alloc
        if (ordered && failed("cudaMallocAsync", bytes,
                              cudaMallocAsync((void **)&d_chunk, bytes, stream)))
            return 1;
        // end region: chunk-alloc
        if (!ordered && failed("cudaMalloc", bytes, cudaMalloc((void **)&d_chunk, bytes)))
            return 1;
        if (failed("cudaMemcpyAsync", bytes,
                   cudaMemcpyAsync(d_chunk, h_in + offset, bytes, cudaMemcpyHostToDevice,
                                   stream))) {
            release_chunk(d_chunk, stream, ordered);
            return 1;
        }
        transform_chunk<<<chunk_blocks(count, THREADS), THREADS, 0, stream>>>(
            d_chunk, d_out + offset, count, offset);
        if (failed("kernel launch", 0, cudaGetLastError())) {
            release_chunk(d_chunk, stream, ordered);
            return 1;
        }
        // region: chunk-free
        // Queued behind the chunk's kernel: the memory is released when the stream gets
        // there, and the host goes on to the next chunk at once. cudaFree would wait
        // here for the GPU.
        if (failed(ordered ? "cudaFreeAsync" : "cudaFree", 0,
                   release_chunk(d_chunk, stream, ordered)))
            return 1;
        // end region: chunk-free
    }
    return 0;
}

// The pipeline over n floats: the results gathered on the device, copied back once,
// checked on the host.
static int run(size_t n)
{
    // region: declarations
    float *h_in = NULL, *h_out = NULL, *d_out = NULL;
    cudaStream_t stream = NULL;
    cudaMemPool_t pool = NULL;
    size_t bytes = n * sizeof(float), good = 0;
    double sum = 0.0;
    int status = 1;
    // end region: declarations

    // A non-blocking stream: no implicit waits on the legacy default stream.
    if (failed("cudaStreamCreateWithFlags", 0,
               cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)) ||
        keep_freed_memory(&pool))
        goto cleanup;
    // region: allocate
    // The device buffer first, so that a size the device cannot hold fails at once,
    // before any host memory is pinned: cudaMallocAsync reports out of memory when it is
    // called, not later in the stream.
    if (failed("cudaMallocAsync", bytes, cudaMallocAsync((void **)&d_out, bytes, stream)))
        goto cleanup;
    // end region: allocate
    if (failed("cudaMallocHost", bytes, cudaMallocHost((void **)&h_in, bytes)) ||
        failed("cudaMallocHost", bytes, cudaMallocHost((void **)&h_out, bytes)))
        goto cleanup;
    fill_input(h_in, n);

    if (pipeline(h_in, d_out, n, stream, 1))
        goto cleanup;
    if (failed("cudaMemcpyAsync", bytes,
               cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, stream)))
        goto cleanup;
    // region: free-out
    if (failed("cudaFreeAsync", 0, cudaFreeAsync(d_out, stream)))
        goto cleanup;
    d_out = NULL;
    // end region: free-out
    if (failed("cudaStreamSynchronize", 0, cudaStreamSynchronize(stream)))
        goto cleanup;

    good = count_expected(h_out, n, &sum);
    printf("chunks: %zu of at most %zu floats\n", (n + CHUNK - 1) / CHUNK, CHUNK);
    printf("results checked on the host: %zu of %zu as expected\n", good, n);
    printf("sum of the results: %.0f\n", sum);
    // region: trim
    // The pipeline is done: what the pool kept goes back to the device.
    if (failed("cudaMemPoolTrimTo", 0, cudaMemPoolTrimTo(pool, 0)))
        goto cleanup;
    // end region: trim
    // Wrong results are reported above: exit status 1 means a CUDA call failed.
    status = 0;

cleanup:
    // cudaFree takes a cudaMallocAsync pointer too (it waits for the device first).
    cudaFree(d_out);
    cudaFreeHost(h_out);
    cudaFreeHost(h_in);
    if (stream)
        cudaStreamDestroy(stream);
    return status;
}

// Runs the transform in place on n floats of host memory through d, the device's
// pointer to it, and checks the result on the host through h; what says which kind
// of memory it was.
static int in_place(const char *what, float *h, float *d, size_t n)
{
    transform_chunk<<<chunk_blocks(n, THREADS), THREADS>>>(d, d, n, 0);
    if (failed("kernel launch", 0, cudaGetLastError()) ||
        failed("cudaDeviceSynchronize", 0, cudaDeviceSynchronize()))
        return 1;
    printf("%s: %zu of %zu as expected\n", what, count_expected(h, n, NULL), n);
    return 0;
}

// Zero-copy: pinned host memory mapped into the device's address space. The kernel reads
// and writes it across the bus, with no copy.
static int zero_copy(size_t n)
{
    float *h = NULL, *d = NULL;
    size_t bytes = n * sizeof(float);
    int status = 1;

    // region: mapped
    if (failed("cudaHostAlloc", bytes,
               cudaHostAlloc((void **)&h, bytes, cudaHostAllocMapped)) ||
        failed("cudaHostGetDevicePointer", 0,
               cudaHostGetDevicePointer((void **)&d, h, 0)))
        goto cleanup;
    // end region: mapped
    fill_input(h, n);
    if (in_place("zero-copy", h, d, n))
        goto cleanup;
    status = 0;

cleanup:
    cudaFreeHost(h);
    return status;
}

// Registered: memory the program already has (from malloc, or a library) pinned where it
// is, so that the GPU may use it as it uses cudaHostAlloc memory.
static int registered(size_t n)
{
    float *h = (float *)malloc(n * sizeof(float)), *d = NULL;
    size_t bytes = n * sizeof(float);
    int is_registered = 0, status = 1;

    if (h == NULL) {
        fprintf(stderr, "error: malloc of %zu bytes failed\n", bytes);
        return 1;
    }
    fill_input(h, n);
    // region: register
    if (failed("cudaHostRegister", bytes,
               cudaHostRegister(h, bytes, cudaHostRegisterDefault)))
        goto cleanup;
    is_registered = 1;
    if (failed("cudaHostGetDevicePointer", 0,
               cudaHostGetDevicePointer((void **)&d, h, 0)))
        goto cleanup;
    // end region: register
    if (in_place("registered", h, d, n))
        goto cleanup;
    status = 0;

cleanup:
    // region: unregister
    // Unregister before free: the runtime would otherwise keep the pages pinned, and a
    // later cudaHostRegister of memory malloc hands out there again fails with 712.
    if (is_registered && failed("cudaHostUnregister", 0, cudaHostUnregister(h)))
        status = 1;
    // end region: unregister
    free(h);
    return status;
}

// One answer of the probe: the question, then the error code's name.
static void answer(const char *question, cudaError_t err)
{
    printf("%s: %s\n", question, cudaGetErrorName(err));
}

// Asks the runtime about the edges of stream-ordered allocation and host memory, and
// prints what it answers.
static int probe(void)
{
    cudaStream_t s = NULL;
    cudaMemPool_t pool = NULL;
    float *d = NULL, *mapped = NULL;
    char *m = NULL;
    void *p = NULL, *dev = NULL;
    unsigned long long threshold = 1;
    cudaError_t err;
    int status = 1;

    if (failed("cudaStreamCreateWithFlags", 0,
               cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) ||
        failed("cudaMalloc", 4096, cudaMalloc((void **)&d, 4096)) ||
        failed("cudaHostAlloc", 4096,
               cudaHostAlloc((void **)&mapped, 4096, cudaHostAllocMapped)) ||
        failed("cudaDeviceGetDefaultMemPool", 0, cudaDeviceGetDefaultMemPool(&pool, 0)))
        goto cleanup;
    m = (char *)malloc(4096);
    if (m == NULL) {
        fprintf(stderr, "error: malloc of 4096 bytes failed\n");
        goto cleanup;
    }
    // region: probe
    p = &p;
    err = cudaMallocAsync(&p, (size_t)1 << 50, s);
    printf("cudaMallocAsync of 2^50 bytes: %s, p is %s\n", cudaGetErrorName(err),
           p == NULL ? "NULL" : "not NULL");
    p = &p;
    err = cudaMallocAsync(&p, 0, s);
    printf("cudaMallocAsync of 0 bytes: %s, p is %s\n", cudaGetErrorName(err),
           p == NULL ? "NULL" : "not NULL");
    answer("cudaMallocAsync of 4096 bytes", cudaMallocAsync(&p, 4096, s));
    answer("cudaFreeAsync of it", cudaFreeAsync(p, s));
    answer("cudaFreeAsync of it again", cudaFreeAsync(p, s));
    answer("cudaFreeAsync of cudaMalloc memory", cudaFreeAsync(d, s));
    d = NULL; // freed in stream order by the question above
    err = cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
    printf("the default pool's release threshold: %s, %llu bytes\n",
           cudaGetErrorName(err), threshold);
    answer("cudaHostRegister of a malloc buffer",
           cudaHostRegister(m, 4096, cudaHostRegisterDefault));
    answer("cudaHostRegister of it again",
           cudaHostRegister(m, 4096, cudaHostRegisterDefault));
    answer("cudaHostUnregister of it", cudaHostUnregister(m));
    answer("cudaHostUnregister of it again", cudaHostUnregister(m));
    err = cudaHostGetDevicePointer(&dev, mapped, 0);
    printf("cudaHostGetDevicePointer of mapped memory: %s, the same address: %s\n",
           cudaGetErrorName(err), dev == (void *)mapped ? "yes" : "no");
    // Each failed call also set the last error; cudaGetLastError returns it
    // once and clears it.
    err = cudaGetLastError();
    printf("cudaGetLastError: %s, then %s\n", cudaGetErrorName(err),
           cudaGetErrorName(cudaGetLastError()));
    // end region: probe
    if (failed("cudaStreamSynchronize", 0, cudaStreamSynchronize(s)))
        goto cleanup;
    status = 0;

cleanup:
    free(m);
    cudaFreeHost(mapped);
    cudaFree(d);
    if (s)
        cudaStreamDestroy(s);
    return status;
}

// Times the pipeline over n floats from the start event to the stop
// event, both on stream.
static int time_pipeline(const float *h_in, float *d_out, size_t n, cudaStream_t stream,
                         int ordered, cudaEvent_t start, cudaEvent_t stop, float *ms)
{
    return failed("cudaEventRecord", 0, cudaEventRecord(start, stream)) ||
           pipeline(h_in, d_out, n, stream, ordered) ||
           failed("cudaEventRecord", 0, cudaEventRecord(stop, stream)) ||
           failed("cudaEventSynchronize", 0, cudaEventSynchronize(stop)) ||
           failed("cudaEventElapsedTime", 0, cudaEventElapsedTime(ms, start, stop));
}

// The same pipeline twice: scratch from cudaMalloc/cudaFree per chunk,
// then stream-ordered.
static int timed(size_t n)
{
    float *h_in = NULL, *h_out = NULL, *d_out = NULL;
    cudaStream_t stream = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    cudaMemPool_t pool = NULL;
    size_t bytes = n * sizeof(float);
    float malloc_ms = 0.0f, ordered_ms = 0.0f;
    int status = 1;

    if (failed("cudaStreamCreateWithFlags", 0,
               cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)) ||
        keep_freed_memory(&pool) ||
        failed("cudaMalloc", bytes, cudaMalloc((void **)&d_out, bytes)) ||
        failed("cudaMallocHost", bytes, cudaMallocHost((void **)&h_in, bytes)) ||
        failed("cudaMallocHost", bytes, cudaMallocHost((void **)&h_out, bytes)) ||
        failed("cudaEventCreate", 0, cudaEventCreate(&start)) ||
        failed("cudaEventCreate", 0, cudaEventCreate(&stop)))
        goto cleanup;
    fill_input(h_in, n);

    // The first launch loads the kernel onto the GPU, and the first stream-ordered chunk
    // fills the pool: one chunk of each, untimed.
    if (pipeline(h_in, d_out, CHUNK < n ? CHUNK : n, stream, 0) ||
        pipeline(h_in, d_out, CHUNK < n ? CHUNK : n, stream, 1) ||
        failed("cudaStreamSynchronize", 0, cudaStreamSynchronize(stream)))
        goto cleanup;
    // region: timed
    if (time_pipeline(h_in, d_out, n, stream, 0, start, stop, &malloc_ms) ||
        time_pipeline(h_in, d_out, n, stream, 1, start, stop, &ordered_ms))
        goto cleanup;
    // end region: timed
    if (failed("cudaMemcpyAsync", bytes,
               cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, stream)) ||
        failed("cudaStreamSynchronize", 0, cudaStreamSynchronize(stream)))
        goto cleanup;
    printf("timed data checked: %s\n",
           count_expected(h_out, n, NULL) == n ? "yes" : "no");
    printf("cudaMalloc per chunk: %.2f ms, stream-ordered: %.2f ms, speed-up: %.2fx\n",
           malloc_ms, ordered_ms, ordered_ms > 0.0f ? malloc_ms / ordered_ms : 0.0f);
    if (failed("cudaMemPoolTrimTo", 0, cudaMemPoolTrimTo(pool, 0)))
        goto cleanup;
    status = 0;

cleanup:
    if (stop)
        cudaEventDestroy(stop);
    if (start)
        cudaEventDestroy(start);
    cudaFreeHost(h_out);
    cudaFreeHost(h_in);
    cudaFree(d_out);
    if (stream)
        cudaStreamDestroy(stream);
    return status;
}

// The number of floats in text: at least 1 and not more than memory can hold; 0
// when it is not one.
static size_t parse_count(const char *text)
{
    char *end = NULL;
    size_t n = strtoull(text, &end, 10);
    if (*text == '\0' || *text == '-' || *end != '\0' || n > SIZE_MAX / sizeof(float))
        return 0;
    return n;
}

int main(int argc, char **argv)
{
    const char *mode = argc >= 2 && strncmp(argv[1], "--", 2) == 0 ? argv[1] : "";
    size_t n = 1000000;

    if (argc == 2 && strcmp(mode, "--probe") == 0)
        return probe();
    if (strcmp(mode, "--timed") == 0 && argc <= 3)
        n = argc == 3 ? parse_count(argv[2]) : TIMED_N;
    else if (strcmp(mode, "--host") == 0 && argc <= 3)
        n = argc == 3 ? parse_count(argv[2]) : n;
    else if (mode[0] == '\0' && argc <= 2)
        n = argc == 2 ? parse_count(argv[1]) : n;
    else
        n = 0;
    if (n == 0) {
        fprintf(stderr,
                "usage: %s [n | --host [n] | --probe | --timed [n]]   "
                "(n: number of floats, at least 1)\n",
                argv[0]);
        return 2;
    }
    if (strcmp(mode, "--timed") == 0)
        return timed(n);
    if (strcmp(mode, "--host") == 0)
        return zero_copy(n) || registered(n);
    return run(n);
}
