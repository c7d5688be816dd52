// Lesson 02: copy data host to device, device to device and back, and learn what a wrong
// direction returns.
//
//   copies [n]           copy n floats (default 1000000) host to device, device to device
//                        and back, checking each
//   copies --probe       ask the runtime what cudaMemcpy returns for each cudaMemcpyKind,
//                        right and wrong
//   copies --bandwidth   time 256 MiB host-to-device copies from pageable and from pinned
//                        host memory
//
// Exit status: 0 success, 1 a CUDA call failed (the out-of-memory contract),
// 2 a usage error.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "fill.cuh"
#include "copies.cuh"

#define THREADS 256
#define PROBE_N 4                              // floats in each of the probe's buffers
#define BANDWIDTH_BYTES ((size_t)256 << 20)    // 256 MiB: long enough that the launch
                                               // costs vanish
#define BANDWIDTH_REPS 5                       // timed copies of each kind of host memory

// region: print-error
// The out-of-memory contract's one line on stderr: which call failed, on how
// many bytes, and why.
static void print_error(const char *call, size_t bytes, cudaError_t err)
{
    if (bytes > 0)
        fprintf(stderr, "error: %s of %zu bytes failed: %s\n", call, bytes,
                cudaGetErrorString(err));
    else
        fprintf(stderr, "error: %s failed: %s\n", call, cudaGetErrorString(err));
}
// end region: print-error

// The same line for a call whose error is err, when it failed: returns 1
// then, 0 on success.
static int failed(const char *call, size_t bytes, cudaError_t err)
{
    if (err == cudaSuccess)
        return 0;
    print_error(call, bytes, err);
    return 1;
}

// The values every source buffer starts with: the whole numbers 1..1000, repeating.
// Floats hold them exactly, so the checksum is exact, and no element is 0, so a float
// that never arrived shows.
static void fill_pattern(float *h, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h[i] = (float)(i % 1000 + 1);
}

// The checksum kernel's sum (kernels/copies.cuh), computed on the host.
static unsigned long long host_checksum(const float *h, size_t n)
{
    unsigned long long sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (unsigned long long)(long long)h[i];
    return sum;
}

// Prints what one copy delivered beside what it should have: its first float, then the
// checksum of all.
static void report(const char *what, float first, float want_first,
                   unsigned long long sum, unsigned long long want_sum)
{
    printf("%s: first float %g, expected %g\n", what, first, want_first);
    printf("%s: checksum %llu, expected %llu\n", what, sum, want_sum);
}

// region: device-summary
// What the device buffer d holds, read back to the host: its first float and the
// checksum of its n floats. Prints the contract's error line and returns the error
// when a call fails.
static cudaError_t device_summary(const float *d, size_t n, unsigned long long *d_sum,
                                  float *first, unsigned long long *sum)
{
    cudaError_t err = cudaMemset(d_sum, 0, sizeof(*d_sum));
    if (err != cudaSuccess) {
        print_error("cudaMemset", sizeof(*d_sum), err);
        return err;
    }
    checksum<<<blocks_for(n, THREADS), THREADS>>>(d, n, d_sum);
    err = cudaGetLastError(); // a launch error shows only here
    if (err != cudaSuccess) {
        print_error("checksum kernel launch", 0, err);
        return err;
    }
    // Blocking copies: they wait for the kernel. Each count is in bytes: sizeof
    // the thing, not 1.
    err = cudaMemcpy(first, d, sizeof(*first), cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
        print_error("cudaMemcpy device to host", sizeof(*first), err);
        return err;
    }
    err = cudaMemcpy(sum, d_sum, sizeof(*sum), cudaMemcpyDeviceToHost);
    if (err != cudaSuccess)
        print_error("cudaMemcpy device to host", sizeof(*sum), err);
    return err;
}
// end region: device-summary

// Copies n floats host to device, device to device, adds 1 on the device, copies them
// back, and checks each.
static int run(size_t n)
{
    // region: declarations
    float *d_a = NULL, *d_b = NULL;   // n floats each, on the device
    unsigned long long *d_sum = NULL; // the checksum kernel's result, on the device
    float *h_pinned = NULL;           // n floats of pinned host memory (cudaMallocHost)
    float *h_pageable = NULL;         // n floats of ordinary, pageable host
                                      // memory (malloc)
    size_t bytes = n * sizeof(float);
    unsigned long long sum = 0, want = 0;
    float first = 0.0f, want_first = 0.0f;
    int status = 1;
    cudaError_t err;
    // end region: declarations

    // region: allocate
    err = cudaMalloc((void **)&d_a, bytes);
    if (err != cudaSuccess) {
        print_error("cudaMalloc", bytes, err);
        goto cleanup;
    }
    err = cudaMalloc((void **)&d_b, bytes);
    if (err != cudaSuccess) {
        print_error("cudaMalloc", bytes, err);
        goto cleanup;
    }
    err = cudaMalloc((void **)&d_sum, sizeof(*d_sum));
    if (err != cudaSuccess) {
        print_error("cudaMalloc", sizeof(*d_sum), err);
        goto cleanup;
    }
    // Pinned (page-locked) host memory: the GPU's copy engines can read and
    // write it directly.
    err = cudaMallocHost((void **)&h_pinned, bytes);
    if (err != cudaSuccess) {
        print_error("cudaMallocHost", bytes, err);
        goto cleanup;
    }
    h_pageable = (float *)malloc(bytes);
    if (h_pageable == NULL) {
        fprintf(stderr, "error: malloc of %zu bytes failed\n", bytes);
        goto cleanup;
    }
    // end region: allocate
    printf("buffers: %zu floats, %zu bytes each\n", n, bytes);

    fill_pattern(h_pageable, n);
    want = host_checksum(h_pageable, n);
    want_first = h_pageable[0];
    // Every destination starts as zeros, so a copy that moved too little, or nothing,
    // shows in the checksum instead of hiding behind whatever the memory held before.
    memset(h_pinned, 0, bytes);
    err = cudaMemset(d_a, 0, bytes);
    if (err == cudaSuccess)
        err = cudaMemset(d_b, 0, bytes);
    if (err != cudaSuccess) {
        print_error("cudaMemset", bytes, err);
        goto cleanup;
    }

    // region: copy-in
    err = cudaMemcpy(d_a, h_pageable, bytes, cudaMemcpyHostToDevice);
    if (err != cudaSuccess) {
        print_error("cudaMemcpy host to device", bytes, err);
        goto cleanup;
    }
    if (device_summary(d_a, n, d_sum, &first, &sum) != cudaSuccess)
        goto cleanup;
    report("host to device", first, want_first, sum, want);

    err = cudaMemcpy(d_b, d_a, bytes, cudaMemcpyDeviceToDevice);
    if (err != cudaSuccess) {
        print_error("cudaMemcpy device to device", bytes, err);
        goto cleanup;
    }
    if (device_summary(d_b, n, d_sum, &first, &sum) != cudaSuccess)
        goto cleanup;
    report("device to device", first, want_first, sum, want);
    // end region: copy-in

    // Work on the device, so that the copy back has something new to bring.
    add<<<blocks_for(n, THREADS), THREADS>>>(d_b, n, 1.0f);
    err = cudaGetLastError();
    if (err != cudaSuccess) {
        print_error("add kernel launch", 0, err);
        goto cleanup;
    }

    // region: copy-back
    // Blocking: it waits for the add kernel, and returns once the data is in h_pinned.
    err = cudaMemcpy(h_pinned, d_b, bytes, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
        print_error("cudaMemcpy device to host", bytes, err);
        goto cleanup;
    }
    report("plus 1 on the device, device to host", h_pinned[0], want_first + 1.0f,
           host_checksum(h_pinned, n), want + n);

    // Unified addressing: the runtime knows where each pointer lives, so
    // cudaMemcpyDefault picks the way.
    err = cudaMemcpy(h_pageable, d_b, bytes, cudaMemcpyDefault);
    if (err != cudaSuccess) {
        print_error("cudaMemcpy with cudaMemcpyDefault", bytes, err);
        goto cleanup;
    }
    report("device to host with cudaMemcpyDefault", h_pageable[0], want_first + 1.0f,
           host_checksum(h_pageable, n), want + n);
    // end region: copy-back
    status = 0;

    // region: cleanup
cleanup:
    // Each allocator has its own release: cudaFree for cudaMalloc, cudaFreeHost for
    // cudaMallocHost, free for malloc. All three accept NULL, so one cleanup serves
    // every exit path.
    free(h_pageable);
    cudaFreeHost(h_pinned);
    cudaFree(d_sum);
    cudaFree(d_b);
    cudaFree(d_a);
    return status;
    // end region: cleanup
}

// One answer of the probe: the question, then the error code's name.
static void answer(const char *question, cudaError_t err)
{
    printf("%s: %s\n", question, cudaGetErrorName(err));
}

// region: probe-copy
// One copy question: copies PROBE_N floats from src to dst with kind, then prints what
// cudaMemcpy returned and, when judge is set, what arrived. dst starts as zeros and src
// as 1, 2, 3, 4, so "copied" is read from the data, not assumed from the return value.
// Returns 0, or 1 when the set-up itself failed. The set-up uses cudaMemcpyDefault, which
// works for host and device pointers.
static int probe_copy(const char *question, float *dst, float *src, cudaMemcpyKind kind,
                      int judge)
{
    const float pattern[PROBE_N] = {1.0f, 2.0f, 3.0f, 4.0f};
    const float zeros[PROBE_N] = {0.0f, 0.0f, 0.0f, 0.0f};
    float seen[PROBE_N];
    const char *verdict;
    cudaError_t err, copy_err;

    err = cudaMemcpy(dst, zeros, sizeof(zeros), cudaMemcpyDefault);
    if (err == cudaSuccess)
        err = cudaMemcpy(src, pattern, sizeof(pattern), cudaMemcpyDefault);
    if (err != cudaSuccess) {
        print_error("cudaMemcpy (probe set-up)", sizeof(pattern), err);
        return 1;
    }
    copy_err = cudaMemcpy(dst, src, sizeof(pattern), kind);
    if (!judge) {
        answer(question, copy_err);
        return 0;
    }
    err = cudaMemcpy(seen, dst, sizeof(seen), cudaMemcpyDefault);
    if (err != cudaSuccess) {
        print_error("cudaMemcpy (probe check)", sizeof(seen), err);
        return 1;
    }
    if (memcmp(seen, pattern, sizeof(seen)) == 0)
        verdict = "copied";
    else if (memcmp(seen, zeros, sizeof(seen)) == 0)
        verdict = "nothing copied";
    else
        verdict = "partly copied";
    printf("%s: %s, %s\n", question, cudaGetErrorName(copy_err), verdict);
    return 0;
}
// end region: probe-copy

// Asks the runtime what cudaMemcpy does with each kind, right and wrong
// (facts/gpu-facts.md has the H200's answers).
static int probe(void)
{
    // PROBE_N floats each, on the device
    float *d_dst = NULL, *d_src = NULL, *d_freed = NULL;
    // PROBE_N floats of pinned host memory
    float *h_pin = NULL;
    float h_dst[PROBE_N], h_src[PROBE_N], h_big[2 * PROBE_N];
    size_t bytes = PROBE_N * sizeof(float);
    int failed = 0;
    int status = 1;
    cudaError_t err;

    err = cudaMalloc((void **)&d_dst, bytes);
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&d_src, bytes);
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&d_freed, bytes);
    if (err != cudaSuccess) {
        print_error("cudaMalloc", bytes, err);
        goto cleanup;
    }
    err = cudaMallocHost((void **)&h_pin, bytes);
    if (err != cudaSuccess) {
        print_error("cudaMallocHost", bytes, err);
        goto cleanup;
    }

    // region: probe
    // Device destination, host source: only HostToDevice names it, yet
    // HostToHost works too.
    failed |= probe_copy("device dst, host src, kind cudaMemcpyHostToDevice",
                         d_dst, h_src, cudaMemcpyHostToDevice, 1);
    failed |= probe_copy("device dst, host src, kind cudaMemcpyDeviceToHost",
                         d_dst, h_src, cudaMemcpyDeviceToHost, 1);
    failed |= probe_copy("device dst, host src, kind cudaMemcpyDeviceToDevice",
                         d_dst, h_src, cudaMemcpyDeviceToDevice, 1);
    failed |= probe_copy("device dst, host src, kind cudaMemcpyHostToHost",
                         d_dst, h_src, cudaMemcpyHostToHost, 1);
    // Host destination, device source.
    failed |= probe_copy("host dst, device src, kind cudaMemcpyDeviceToHost",
                         h_dst, d_src, cudaMemcpyDeviceToHost, 1);
    failed |= probe_copy("host dst, device src, kind cudaMemcpyHostToDevice",
                         h_dst, d_src, cudaMemcpyHostToDevice, 1);
    failed |= probe_copy("host dst, host src, kind cudaMemcpyHostToDevice",
                         h_dst, h_src, cudaMemcpyHostToDevice, 0);
    // cudaMemcpyDefault: the runtime looks the pointers up (unified addressing) and
    // picks the direction.
    failed |= probe_copy("device dst, host src, kind cudaMemcpyDefault",
                         d_dst, h_src, cudaMemcpyDefault, 1);
    failed |= probe_copy("host dst, device src, kind cudaMemcpyDefault",
                         h_dst, d_src, cudaMemcpyDefault, 1);
    failed |= probe_copy("device dst, device src, kind cudaMemcpyDefault",
                         d_dst, d_src, cudaMemcpyDefault, 1);
    failed |= probe_copy("host dst, host src, kind cudaMemcpyDefault",
                         h_dst, h_src, cudaMemcpyDefault, 1);
    // A number that is no cudaMemcpyKind at all.
    failed |= probe_copy("device dst, host src, kind 7",
                         d_dst, h_src, (cudaMemcpyKind)7, 0);

    // Counts past the allocation, and pointers already given back.
    answer("device to host, twice the allocation's bytes",
           cudaMemcpy(h_big, d_src, sizeof(h_big), cudaMemcpyDeviceToHost));
    cudaFree(d_freed);
    answer("device to host from a freed device pointer",
           cudaMemcpy(h_dst, d_freed, bytes, cudaMemcpyDeviceToHost));
    d_freed = NULL;
    answer("cudaFree of pinned memory", cudaFree(h_pin));
    answer("cudaFreeHost of the same pinned memory", cudaFreeHost(h_pin));
    h_pin = NULL;
    // end region: probe
    status = failed ? 1 : 0;

cleanup:
    cudaFreeHost(h_pin);
    cudaFree(d_freed);
    cudaFree(d_src);
    cudaFree(d_dst);
    return status;
}

// region: time-copies
// Times reps host-to-device copies of bytes from h_src into d_dst with CUDA events; *ms
// gets the mean milliseconds of one copy. The events are recorded on the GPU's own
// timeline, around the copies.
static cudaError_t time_copies(float *d_dst, const float *h_src, size_t bytes, int reps,
                               cudaEvent_t start, cudaEvent_t stop, float *ms)
{
    float total = 0.0f;
    cudaError_t err;

    // One untimed copy first: the first copy from a buffer pays for set-up
    // the others do not.
    err = cudaMemcpy(d_dst, h_src, bytes, cudaMemcpyHostToDevice);
    if (failed("cudaMemcpy host to device", bytes, err) ||
        failed("cudaEventRecord", 0, err = cudaEventRecord(start, 0)))
        return err;
    for (int i = 0; i < reps; i++) {
        err = cudaMemcpy(d_dst, h_src, bytes, cudaMemcpyHostToDevice);
        if (failed("cudaMemcpy host to device", bytes, err))
            return err;
    }
    // cudaEventSynchronize waits until the GPU has passed stop.
    if (failed("cudaEventRecord", 0, err = cudaEventRecord(stop, 0)) ||
        failed("cudaEventSynchronize", 0, err = cudaEventSynchronize(stop)) ||
        failed("cudaEventElapsedTime", 0,
               err = cudaEventElapsedTime(&total, start, stop)))
        return err;
    *ms = total / reps;
    return cudaSuccess;
}
// end region: time-copies

// Times host-to-device copies of the same data from pageable and from pinned memory,
// and prints both.
static int bandwidth(void)
{
    float *d_buf = NULL, *h_pinned = NULL, *h_pageable = NULL;
    unsigned long long *d_sum = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    size_t bytes = BANDWIDTH_BYTES, n = BANDWIDTH_BYTES / sizeof(float);
    float ms_pageable = 0.0f, ms_pinned = 0.0f, first = 0.0f;
    unsigned long long sum = 0, want = 0;
    int status = 1;
    cudaError_t err;

    err = cudaMalloc((void **)&d_buf, bytes);
    if (err != cudaSuccess) {
        print_error("cudaMalloc", bytes, err);
        goto cleanup;
    }
    err = cudaMalloc((void **)&d_sum, sizeof(*d_sum));
    if (err != cudaSuccess) {
        print_error("cudaMalloc", sizeof(*d_sum), err);
        goto cleanup;
    }
    err = cudaMallocHost((void **)&h_pinned, bytes);
    if (err != cudaSuccess) {
        print_error("cudaMallocHost", bytes, err);
        goto cleanup;
    }
    h_pageable = (float *)malloc(bytes);
    if (h_pageable == NULL) {
        fprintf(stderr, "error: malloc of %zu bytes failed\n", bytes);
        goto cleanup;
    }
    err = cudaEventCreate(&start);
    if (err == cudaSuccess)
        err = cudaEventCreate(&stop);
    if (err != cudaSuccess) {
        print_error("cudaEventCreate", 0, err);
        goto cleanup;
    }
    // The same data in both buffers, written once, so every page exists before
    // the timing starts.
    fill_pattern(h_pageable, n);
    memcpy(h_pinned, h_pageable, bytes);
    want = host_checksum(h_pageable, n);

    // region: bandwidth
    // time_copies prints the error line of the call that failed.
    if (time_copies(d_buf, h_pageable, bytes, BANDWIDTH_REPS, start, stop,
                    &ms_pageable) != cudaSuccess ||
        time_copies(d_buf, h_pinned, bytes, BANDWIDTH_REPS, start, stop,
                    &ms_pinned) != cudaSuccess)
        goto cleanup;
    // end region: bandwidth
    if (device_summary(d_buf, n, d_sum, &first, &sum) != cudaSuccess)
        goto cleanup;

    printf("bandwidth: %zu bytes host to device, mean of %d copies timed with "
           "CUDA events\n", bytes, BANDWIDTH_REPS);
    printf("pageable: %.3f ms, %.1f GB/s\n", ms_pageable, bytes / ms_pageable / 1e6);
    printf("pinned: %.3f ms, %.1f GB/s\n", ms_pinned, bytes / ms_pinned / 1e6);
    printf("copied data checked: %s\n",
           sum == want && first == h_pageable[0] ? "yes" : "no");
    printf("pinned/pageable: %.1fx\n", ms_pageable / ms_pinned);
    status = 0;

cleanup:
    // An event is a handle, not a pointer: cudaEventDestroy(NULL) is an error, so only
    // created ones go.
    if (stop != NULL)
        cudaEventDestroy(stop);
    if (start != NULL)
        cudaEventDestroy(start);
    free(h_pageable);
    cudaFreeHost(h_pinned);
    cudaFree(d_sum);
    cudaFree(d_buf);
    return status;
}

int main(int argc, char **argv)
{
    size_t n = 1000000;
    char *end = NULL;

    if (argc == 2 && strcmp(argv[1], "--probe") == 0)
        return probe();
    if (argc == 2 && strcmp(argv[1], "--bandwidth") == 0)
        return bandwidth();
    if (argc == 2) {
        n = strtoull(argv[1], &end, 10);
        if (*argv[1] == '\0' || *argv[1] == '-' || *end != '\0' || n == 0 ||
            n > SIZE_MAX / sizeof(float)) {
            fprintf(stderr,
                    "usage: %s [n | --probe | --bandwidth]   "
                    "(n: number of floats, at least 1)\n",
                    argv[0]);
            return 2;
        }
    } else if (argc > 2) {
        fprintf(stderr, "usage: %s [n | --probe | --bandwidth]\n", argv[0]);
        return 2;
    }
    return run(n);
}
