// Lesson 09 (exercise), capstone: a data set larger than the GPU. The program sums the
// Collatz steps of a data set's n values (kernels/chunks.cuh) on a device whose memory
// cannot hold them: in chunks, through buffers allocated once, on several streams, so
// that the host reads the next chunk while the GPU copies and sums this one.
//
//   chunks [--budget BYTES] n   the sum over n values, using at most BYTES of device
//                               memory (default: what cudaMemGetInfo says is free)
//   chunks --timed [n]          the same pipeline on one stream, waiting after each
//                               chunk, then on STREAMS streams, both timed (n values,
//                               default 2^28, read into pinned memory first)
//
// Exit status: 0 success, 1 a CUDA call failed or the budget cannot hold the smallest
// chunks (the out-of-memory contract), 2 a usage error.
//
// Your work is at the TODO markers; lessons/09-larger-than-gpu.md explains why. Grade it:
// make check LESSON=9
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "chunks.cuh"

#define STREAMS 2                    // chunks in flight: one being read by the host,
                                     // one on the GPU
#define MAX_CHUNK ((size_t)1 << 22)  // values per chunk at most: 16 MiB buffers
#define MIN_CHUNK ((size_t)1 << 18)  // and at least: 1 MiB (smaller chunks spend their
                                     // time launching)
#define TIMED_N ((size_t)1 << 28)    // 1 GiB of values, 64 chunks of MAX_CHUNK

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

// Everything the pipeline holds: allocated once, before the first chunk, and released
// once, at the end.
struct pipeline {
    int streams;                      // how many of each array below the pipeline uses
    size_t chunk;                     // values per chunk buffer
    unsigned int *d_in[STREAMS];      // device: the chunk each stream is summing
    unsigned long long *d_sums;       // device: each stream's running sum
    unsigned int *h_stage[STREAMS];   // pinned: where the host reads a chunk, for its
                                      // copy to the device
    unsigned long long *h_sums;       // pinned: the running sums, copied back at the end
    cudaStream_t stream[STREAMS];
    cudaEvent_t copied[STREAMS];      // recorded behind each copy: its staging buffer
                                      // may be read into again
};

// The device memory a pipeline of chunk values per stream holds: a chunk buffer and
// a sum per stream.
static size_t device_bytes(int streams, size_t chunk)
{
    return (size_t)streams * (chunk * sizeof(unsigned int) + sizeof(unsigned long long));
}

// region: first-chunk
// The largest chunk (a power of two, at most MAX_CHUNK) whose buffers fit in budget
// bytes; 0 when not even MIN_CHUNK does.
static size_t first_chunk(size_t budget, int streams)
{
    size_t chunk = MAX_CHUNK;
    while (chunk >= MIN_CHUNK && device_bytes(streams, chunk) > budget)
        chunk /= 2;
    return chunk >= MIN_CHUNK ? chunk : 0;
}
// end region: first-chunk

// region: free-device
// Frees the device buffers and forgets them (cudaFree(NULL) does nothing: a buffer never
// allocated is fine).
static void free_device(struct pipeline *p)
{
    for (int s = 0; s < STREAMS; s++) {
        cudaFree(p->d_in[s]);
        p->d_in[s] = NULL;
    }
    cudaFree(p->d_sums);
    p->d_sums = NULL;
}
// end region: free-device

// region: allocate-device
// Allocates the device buffers for p->chunk values per stream. When the device is out of
// memory (the budget was more than it really has, or another process took some), frees
// what it holds, halves the chunk and tries again, down to MIN_CHUNK. Returns 1 when it
// cannot, having printed the last failure.
static int allocate_device(struct pipeline *p)
{
    /* TODO(step 3): cudaMalloc p->d_in[s] (p->chunk values) for each of the p->streams
     * streams, then p->d_sums (p->streams sums). Return 0 when all succeed.
     * TODO(step 5): when one fails with cudaErrorMemoryAllocation: free_device(p) first,
     * clear the error (cudaGetLastError), halve p->chunk and try again. Any other error,
     * or a chunk that would fall below MIN_CHUNK: failed("cudaMalloc", bytes, err) for
     * the call that failed, and return 1 (step 8). */
    (void)p;
    return 0;
}
// end region: allocate-device

// The pinned staging buffers, the streams and the events, once the chunk size is known.
static int allocate_host(struct pipeline *p)
{
    size_t bytes = p->chunk * sizeof(unsigned int);
    for (int s = 0; s < p->streams; s++)
        if (failed("cudaMallocHost", bytes,
                   cudaMallocHost((void **)&p->h_stage[s], bytes)) ||
            failed("cudaStreamCreateWithFlags", 0,
                   cudaStreamCreateWithFlags(&p->stream[s], cudaStreamNonBlocking)) ||
            failed("cudaEventCreateWithFlags", 0,
                   cudaEventCreateWithFlags(&p->copied[s], cudaEventDisableTiming)))
            return 1;
    return failed("cudaMallocHost", p->streams * sizeof(unsigned long long),
                  cudaMallocHost((void **)&p->h_sums,
                                 p->streams * sizeof(unsigned long long)));
}

static void release(struct pipeline *p)
{
    free_device(p);
    for (int s = 0; s < STREAMS; s++) {
        cudaFreeHost(p->h_stage[s]);
        if (p->copied[s])
            cudaEventDestroy(p->copied[s]);
        if (p->stream[s])
            cudaStreamDestroy(p->stream[s]);
    }
    cudaFreeHost(p->h_sums);
    memset(p, 0, sizeof *p);
}

// Sums the Collatz steps of the data set's first n values into *total. Chunk k goes to
// stream k % streams: while the GPU copies and sums it, the host reads chunk k + 1 into
// the next stream's staging buffer. serial: wait for each chunk before reading the next
// (the way it is first written, timed for comparison). data: NULL, or the whole data set
// already in pinned memory (the timed mode): each chunk is then copied from its place
// there, with no staging buffer to read into or wait for.
static int run_pipeline(struct pipeline *p, unsigned int *data, size_t n, int serial,
                        unsigned long long *total)
{
    size_t first, count;
    int s, k;
    for (s = 0; s < p->streams; s++)
        if (failed("cudaMemsetAsync", sizeof(unsigned long long),
                   cudaMemsetAsync(p->d_sums + s, 0, sizeof(unsigned long long),
                                   p->stream[s])))
            return 1;
    for (k = 0, first = 0; first < n; k++, first += count) {
        s = k % p->streams;
        count = n - first < p->chunk ? n - first : p->chunk;
        // The chunk's values in pinned memory, for its copy: in place, or read into
        // the staging buffer.
        unsigned int *src = data != NULL ? data + first : p->h_stage[s];
        if (data == NULL) {
            // region: refill
            /* TODO(step 6): the staging buffer still feeds the copy of chunk k - streams
             * until that copy is done: wait for it, and only for it (cudaEventSynchronize
             * on p->copied[s]; an event never recorded is complete). A failed call:
             * failed(), return 1. */
            // end region: refill
            read_chunk(src, first, count);
        }
        // region: chunk
        /* TODO(step 2): copy the count values of src to p->d_in[s] (cudaMemcpyAsync on
         * p->stream[s]), record p->copied[s] behind the copy on the same stream
         * (cudaEventRecord), and sum the chunk into p->d_sums + s:
         * sum_steps<<<sum_blocks(count), SUM_THREADS, 0, p->stream[s]>>>, then
         * cudaGetLastError. A failed call: failed(), return 1. */
        // end region: chunk
        if (serial &&
            failed("cudaStreamSynchronize", 0, cudaStreamSynchronize(p->stream[s])))
            return 1;
    }
    // region: gather
    /* TODO(step 2): copy each stream's sum, p->d_sums[s], to p->h_sums[s] on its own
     * stream (cudaMemcpyAsync), then for each stream: cudaStreamSynchronize it, and only
     * then add p->h_sums[s] to *total. A failed call: failed(), return 1. */
    *total = 0;
    // end region: gather
    return 0;
}

// The sum over n values within budget bytes of device memory; budget 0: what
// cudaMemGetInfo says is free.
static int run(size_t n, size_t budget)
{
    struct pipeline p;
    cudaFuncAttributes attr;
    unsigned long long total = 0;
    int status = 1;

    memset(&p, 0, sizeof p);
    // The kernel's code loaded now (CUDA loads a module at its first use): it goes to the
    // device before the budget is measured, not into the memory the budget says the
    // chunks may have.
    if (failed("cudaFuncGetAttributes", 0, cudaFuncGetAttributes(&attr, sum_steps)))
        goto cleanup;
    // region: budget
    /* TODO(step 4): without --budget (budget is 0), the budget is the free memory
     * cudaMemGetInfo reports (two size_t of your own for it to write: the free bytes and
     * the total). A failed call: failed(), goto cleanup. */
    p.streams = STREAMS;
    p.chunk = first_chunk(budget, p.streams);
    if (p.chunk == 0) {
        fprintf(stderr,
                "error: a budget of %zu bytes cannot hold %d chunks of %zu values "
                "(%zu bytes)\n",
                budget, p.streams, MIN_CHUNK, device_bytes(p.streams, MIN_CHUNK));
        goto cleanup;
    }
    // end region: budget
    printf("budget: %zu bytes of device memory\n", budget);
    if (allocate_device(&p) || allocate_host(&p))
        goto cleanup;
    printf("chunks of %zu values on %d streams: %zu bytes of device memory\n", p.chunk,
           p.streams, device_bytes(p.streams, p.chunk));
    if (run_pipeline(&p, NULL, n, 0, &total))
        goto cleanup;
    printf("chunks: %zu\n", (n + p.chunk - 1) / p.chunk);
    printf("sum of steps: %llu\n", total);
    status = 0;

cleanup:
    release(&p);
    return status;
}

// Times run_pipeline over data from an event before it to one after it, both on the first
// stream (the others wait for the start; the pipeline ends by waiting for every stream,
// so the stop comes after all of them).
static int time_pipeline(struct pipeline *p, unsigned int *data, size_t n, int serial,
                         cudaEvent_t start, cudaEvent_t stop, float *ms,
                         unsigned long long *total)
{
    if (failed("cudaEventRecord", 0, cudaEventRecord(start, p->stream[0])))
        return 1;
    for (int s = 1; s < p->streams; s++)
        if (failed("cudaStreamWaitEvent", 0, cudaStreamWaitEvent(p->stream[s], start, 0)))
            return 1;
    return run_pipeline(p, data, n, serial, total) ||
           failed("cudaEventRecord", 0, cudaEventRecord(stop, p->stream[0])) ||
           failed("cudaEventSynchronize", 0, cudaEventSynchronize(stop)) ||
           failed("cudaEventElapsedTime", 0, cudaEventElapsedTime(ms, start, stop));
}

// The pipeline over n values twice: on one stream, waiting after each chunk, then on
// STREAMS streams. Chunks of n / 8 values (a power of two within MIN_CHUNK..MAX_CHUNK),
// so that both have chunks to overlap. The data set is read into pinned memory first,
// untimed, and the chunks are copied from it: what is timed is what two streams can
// overlap, the copy engine's work and the SMs'. (Reading the values costs the host
// several ns each, ~1 s for 2^28 of them: timed, it would take most of both times and
// hide the overlap.) Expected on the H200, per chunk of 2^22 values: the copy of 16 MiB
// at ~55 GB/s (facts/gpu-facts.md), ~0.31 ms; the sum, ~0.18 ms (4 Mi values x ~191
// Collatz steps for the slowest lane of a warp x ~7 instructions a step, over 132 SMs x 4
// warp instructions a cycle at ~1.8 GHz). One stream that waits runs them one after the
// other, ~0.5 ms a chunk; two streams run one chunk's sum under the next one's copy,
// ~0.31 ms a chunk: about 1.6x.
static int timed(size_t n)
{
    struct pipeline p;
    unsigned int *data = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    unsigned long long serial_sum = 0, overlapped_sum = 0, warm = 0;
    float serial_ms = 0.0f, overlapped_ms = 0.0f;
    int status = 1;

    memset(&p, 0, sizeof p);
    p.streams = STREAMS;
    for (p.chunk = MAX_CHUNK; p.chunk > MIN_CHUNK && p.chunk > n / 8; p.chunk /= 2)
        ;
    if (allocate_device(&p) || allocate_host(&p) ||
        failed("cudaMallocHost", n * sizeof(unsigned int),
               cudaMallocHost((void **)&data, n * sizeof(unsigned int))) ||
        failed("cudaEventCreate", 0, cudaEventCreate(&start)) ||
        failed("cudaEventCreate", 0, cudaEventCreate(&stop)))
        goto cleanup;
    read_chunk(data, 0, n);
    // The first launch loads the kernel: one chunk, untimed.
    if (run_pipeline(&p, data, p.chunk < n ? p.chunk : n, 0, &warm))
        goto cleanup;
    // region: timed
    p.streams = 1;
    if (time_pipeline(&p, data, n, 1, start, stop, &serial_ms, &serial_sum))
        goto cleanup;
    p.streams = STREAMS;
    if (time_pipeline(&p, data, n, 0, start, stop, &overlapped_ms, &overlapped_sum))
        goto cleanup;
    // end region: timed
    printf("timed: %zu values in chunks of %zu\n", n, p.chunk);
    printf("timed sums of steps: %llu serial, %llu overlapped\n", serial_sum,
           overlapped_sum);
    printf("one stream, serial: %.2f ms, %d streams: %.2f ms, speed-up: %.2fx\n",
           serial_ms, STREAMS, overlapped_ms,
           overlapped_ms > 0.0f ? serial_ms / overlapped_ms : 0.0f);
    status = 0;

cleanup:
    p.streams = STREAMS;
    if (stop)
        cudaEventDestroy(stop);
    if (start)
        cudaEventDestroy(start);
    cudaFreeHost(data);
    release(&p);
    return status;
}

// A count in text: at least 1; 0 when it is not one.
static size_t parse_count(const char *text)
{
    char *end = NULL;
    size_t n = strtoull(text, &end, 10);
    if (*text == '\0' || *text == '-' || *end != '\0' ||
        n > SIZE_MAX / sizeof(unsigned int))
        return 0;
    return n;
}

int main(int argc, char **argv)
{
    size_t n = 0, budget = 0;

    if (argc >= 2 && strcmp(argv[1], "--timed") == 0 && argc <= 3) {
        n = argc == 3 ? parse_count(argv[2]) : TIMED_N;
        if (n > 0)
            return timed(n);
    } else if (argc == 4 && strcmp(argv[1], "--budget") == 0) {
        budget = parse_count(argv[2]);
        n = budget > 0 ? parse_count(argv[3]) : 0;
    } else if (argc == 2) {
        n = parse_count(argv[1]);
    }
    if (n == 0) {
        fprintf(stderr,
                "usage: %s [--budget BYTES] n | --timed [n]   "
                "(n: values, at least 1)\n",
                argv[0]);
        return 2;
    }
    return run(n, budget);
}
