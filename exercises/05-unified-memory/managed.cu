// Lesson 05 (exercise): unified (managed) memory: one pointer for the host and the
// device, where its pages live, and what moving them costs.
//
//   managed [n]          n floats (default 1000000): the host fills managed inputs, the
//                        GPU scales them through a managed lookup table, the host checks
//                        the managed results
//   managed --where      which kind of memory each of five pointers points to
//                        (cudaPointerGetAttributes)
//   managed --probe      what allocation, prefetch and advice calls return at their edges
//   managed --timed [n]  the same kernel on host-written managed data, first without a
//                        prefetch, then with one (n floats, default 1 GiB of them)
//
// Exit status: 0 success, 1 a CUDA call failed (the out-of-memory contract),
// 2 a usage error.
// Your work is at the TODO markers; lessons/05-unified-memory.md explains why. Grade it:
// make check LESSON=5
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "managed.cuh"

#define THREADS 256
#define TIMED_N ((size_t)1 << 28) // 2^28 floats: 1 GiB, far less than the H200's
                                  // free memory

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

// region: location
// CUDA 13 names a place with a cudaMemLocation; CUDA 12 took a device number
// (cudaCpuDeviceId for the host), a form nvcc 13 no longer compiles. One helper keeps the
// program building with either.
static cudaError_t prefetch(const void *p, size_t bytes, int device, cudaStream_t stream)
{
#if CUDART_VERSION >= 13000
    struct cudaMemLocation to;
    to.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost :
                                          cudaMemLocationTypeDevice;
    to.id = device == cudaCpuDeviceId ? 0 : device;
    return cudaMemPrefetchAsync(p, bytes, to, 0, stream);
#else
    return cudaMemPrefetchAsync(p, bytes, device, stream);
#endif
}

static cudaError_t advise(const void *p, size_t bytes, enum cudaMemoryAdvise advice,
                          int device)
{
#if CUDART_VERSION >= 13000
    struct cudaMemLocation at;
    at.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost :
                                          cudaMemLocationTypeDevice;
    at.id = device == cudaCpuDeviceId ? 0 : device;
    return cudaMemAdvise(p, bytes, advice, at);
#else
    return cudaMemAdvise(p, bytes, advice, device);
#endif
}
// end region: location

// region: fits
// Managed memory may be asked for beyond the device's free memory (over-subscribed: pages
// are evicted to the host as the GPU touches more), and on a GPU machine that can stall
// the whole device, not only this program. So ask first: do count buffers of bytes each
// fit in what is free?
static int fits_on_device(size_t bytes, size_t count)
{
    size_t free_bytes = 0, total_bytes = 0;
    if (failed("cudaMemGetInfo", 0, cudaMemGetInfo(&free_bytes, &total_bytes)))
        return 0;
    if (bytes <= free_bytes / count)
        return 1;
    fprintf(stderr, "error: cudaMallocManaged of %zu bytes failed "
                    "(%zu such buffers, %zu bytes free): %s\n",
            bytes, count, free_bytes, cudaGetErrorString(cudaErrorMemoryAllocation));
    return 0;
}
// end region: fits

// What the host expects out[i] to be, computed from the same managed inputs as the GPU.
static float expected_at(const float *in, const float *table, size_t n, size_t i)
{
    size_t j = n - 1 - i;
    return in[i] * table[i % TABLE_SIZE] + in[j] * table[j % TABLE_SIZE];
}

// The inputs come from the host, written straight into managed memory, the
// results go back to it.
static int run(size_t n)
{
    // region: declarations
    float *d_scaled = NULL;                       // n floats only the GPU touches: plain
                                                  // device memory
    float *in = NULL, *table = NULL, *out = NULL; // managed: the host writes in and
                                                  // table, reads out
    cudaStream_t stream = NULL;
    size_t bytes = n * sizeof(float), good = 0;
    double sum = 0.0;
    int status = 1;
    // end region: declarations

    // region: allocate
    // What only the GPU reads and writes needs no managed pages: cudaMalloc, asked first,
    // so that a size the device cannot hold fails there (managed memory may be
    // over-subscribed, and touching more than the device has can stall the whole GPU).
    if (failed("cudaMalloc", bytes, cudaMalloc((void **)&d_scaled, bytes)) ||
        !fits_on_device(bytes, 2))
        goto cleanup;
    /* TODO(step 2): allocate in and out, n floats each, and table, TABLE_SIZE floats,
     * as managed memory (cudaMallocManaged, cudaMemAttachGlobal): one pointer each, for
     * the host and the kernels alike. Report a failed call with failed() and goto
     * cleanup, as above. */
    if (failed("cudaStreamCreate", 0, cudaStreamCreate(&stream)))
        goto cleanup;
    // end region: allocate

    // The host writes managed memory through the same pointers the kernels get: no copy.
    for (size_t i = 0; i < n; i++)
        in[i] = (float)(i % 7);
    for (size_t j = 0; j < TABLE_SIZE; j++)
        table[j] = (float)(j % 5);

    // region: advise
    // The GPU only reads the table: each processor that reads it may keep a copy of
    // its own. Never give this advice for data a kernel writes: every write
    // invalidates all the copies.
    /* TODO(step 5): advise the runtime that the whole table is read mostly
     * (the helper advise() above). */
    // end region: advise

    // region: prefetch-in
    // Move the inputs in bulk, in stream order before the kernels, rather than page by
    // page as the kernels fault on them.
    /* TODO(step 4): prefetch all of in, and the table, to device 0 on stream
     * (the helper prefetch() above). */
    // end region: prefetch-in

    scale_by_table<<<managed_blocks(n, THREADS), THREADS, 0, stream>>>(in, table,
                                                                       d_scaled, n);
    mirror_sum<<<managed_blocks(n, THREADS), THREADS, 0, stream>>>(d_scaled, out, n);
    if (failed("kernel launch", 0, cudaGetLastError()))
        goto cleanup;

    // region: prefetch-out
    // The results go to the host, queued behind the kernel that writes them.
    /* TODO(step 4): prefetch all of out to the host (cudaCpuDeviceId),
     * behind the kernels. */
    // end region: prefetch-out

    // region: wait
    // One pointer does not mean one moment: the host may read out only once the
    // stream has finished.
    /* TODO(step 2): wait until everything queued on stream has finished, before the
     * host reads out. */
    // end region: wait

    for (size_t i = 0; i < n; i++) {
        good += out[i] == expected_at(in, table, n, i);
        sum += out[i];
    }
    printf("results checked on the host: %zu of %zu as expected\n", good, n);
    printf("sum of the results: %.0f\n", sum);
    // Wrong results are reported above: exit status 1 means a CUDA call failed.
    status = 0;

    // region: cleanup
cleanup:
    /* TODO(step 7): release everything run() may hold on every path that gets here: the
     * device buffer, the three managed buffers and the stream. */
    return status;
    // end region: cleanup
}

static const char *type_name(enum cudaMemoryType type)
{
    switch (type) {
    case cudaMemoryTypeManaged: return "cudaMemoryTypeManaged";
    case cudaMemoryTypeDevice: return "cudaMemoryTypeDevice";
    case cudaMemoryTypeHost: return "cudaMemoryTypeHost";
    default: return "cudaMemoryTypeUnregistered";
    }
}

// region: describe
// Prints what kind of memory p points to, and whether host code may dereference it.
static int describe(const char *what, const void *p)
{
    /* TODO(step 3): ask cudaPointerGetAttributes(&attr, p) what p points to
     * (a failed call: failed(), return 1), then print
     * "WHAT: TYPE, the host can read it: yes" (or no), TYPE from type_name(attr.type).
     * Host code may dereference every kind of memory but device memory. */
    (void)p;
    printf("%s: %s, the host can read it: not asked yet\n", what,
           type_name(cudaMemoryTypeUnregistered));
    return 0;
}
// end region: describe

// One pointer of each kind, and what the runtime says about each.
static int where(void)
{
    float *managed = NULL, *device = NULL, *pinned = NULL, *pageable = NULL;
    int status = 1;

    if (failed("cudaMallocManaged", 64,
               cudaMallocManaged((void **)&managed, 64, cudaMemAttachGlobal)) ||
        failed("cudaMalloc", 64, cudaMalloc((void **)&device, 64)) ||
        failed("cudaMallocHost", 64, cudaMallocHost((void **)&pinned, 64)))
        goto cleanup;
    pageable = (float *)malloc(64);
    if (pageable == NULL) {
        fprintf(stderr, "error: malloc of 64 bytes failed\n");
        goto cleanup;
    }
    if (describe("managed pointer", managed) || describe("device pointer", device) ||
        describe("inside the device buffer", device + 1) ||
        describe("pinned pointer", pinned) || describe("pageable pointer", pageable))
        goto cleanup;
    status = 0;

cleanup:
    free(pageable);
    cudaFreeHost(pinned);
    cudaFree(device);
    cudaFree(managed);
    return status;
}

// One answer of the probe: the question, then the error code's name.
static void answer(const char *question, cudaError_t err)
{
    printf("%s: %s\n", question, cudaGetErrorName(err));
}

// Asks the runtime about the edges of managed memory and prints what it answers.
static int probe(void)
{
    float *m = NULL, *d = NULL;
    void *p = NULL;
    cudaError_t err;
    int status = 1;

    if (failed("cudaMallocManaged", 4096,
               cudaMallocManaged((void **)&m, 4096, cudaMemAttachGlobal)) ||
        failed("cudaMalloc", 4096, cudaMalloc((void **)&d, 4096)))
        goto cleanup;
    // region: probe
    /* TODO(step 6): replace each cudaErrorNotYetImplemented below by the call its
     * question names; the two answered already show how. m is 4096 bytes of managed
     * memory, d 4096 bytes of device memory. */
    err = cudaErrorNotYetImplemented; // a cudaMallocManaged of 0 bytes into p
    printf("cudaMallocManaged of 0 bytes: %s, p is %s\n", cudaGetErrorName(err),
           p == NULL ? "NULL" : "not NULL");
    answer("cudaMallocManaged with flags 4",
           cudaErrorNotYetImplemented); // 16 bytes into p, flags 4
    answer("prefetch of the whole buffer to device 0", prefetch(m, 4096, 0, 0));
    answer("prefetch of one byte past its end",
           cudaErrorNotYetImplemented); // 4097 bytes of m
    answer("prefetch to device 99", cudaErrorNotYetImplemented); // all of m
    answer("prefetch of cudaMalloc memory",
           cudaErrorNotYetImplemented); // all of d, to device 0
    answer("ReadMostly advice on cudaMalloc memory",
           advise(d, 4096, cudaMemAdviseSetReadMostly, 0));
    answer("cudaFreeHost of managed memory", cudaErrorNotYetImplemented); // m
    // Each failed call also set the last error; cudaGetLastError returns it
    // once and clears it.
    err = cudaGetLastError();
    printf("cudaGetLastError: %s, then %s\n", cudaGetErrorName(err),
           cudaGetErrorName(cudaGetLastError()));
    // end region: probe
    status = 0;

cleanup:
    cudaFree(d);
    cudaFree(m);
    return status;
}

// Writes value into every element from the host: the pages of a managed buffer come
// back to the host.
static void host_fill(float *data, size_t n, float value)
{
    for (size_t i = 0; i < n; i++)
        data[i] = value;
}

// Times add_one on n managed floats that the host has just written, from the start event
// to the stop event; with prefetch_first, the pages are moved to the GPU in bulk first,
// inside the timing. Without it, every page the kernel reaches faults and moves on
// demand. Returns 1 when a call failed.
static int time_first_touch(float *data, size_t n, int prefetch_first, cudaEvent_t start,
                            cudaEvent_t stop, float *ms)
{
    host_fill(data, n, 1.0f); // the pages come back to the host
    if (failed("cudaEventRecord", 0, cudaEventRecord(start, 0)))
        return 1;
    /* TODO(step 9): when prefetch_first is set, prefetch all n floats of data to device 0
     * here, inside the timing, before the kernel (a failed call: failed(), return 1). */
    (void)prefetch_first;
    add_one<<<managed_blocks(n, THREADS), THREADS>>>(data, n);
    return failed("kernel launch", 0, cudaGetLastError()) ||
           failed("cudaEventRecord", 0, cudaEventRecord(stop, 0)) ||
           failed("cudaEventSynchronize", 0, cudaEventSynchronize(stop)) ||
           failed("cudaEventElapsedTime", 0, cudaEventElapsedTime(ms, start, stop));
}

// Times add_one on n host-written managed floats, without a prefetch, then with one.
static int timed(size_t n)
{
    float *data = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    size_t bytes = n * sizeof(float), good = 0;
    float first_ms = 0.0f, prefetched_ms = 0.0f;
    int status = 1;

    if (!fits_on_device(bytes, 1) ||
        failed("cudaMallocManaged", bytes,
               cudaMallocManaged((void **)&data, bytes, cudaMemAttachGlobal)) ||
        failed("cudaEventCreate", 0, cudaEventCreate(&start)) ||
        failed("cudaEventCreate", 0, cudaEventCreate(&stop)))
        goto cleanup;

    // The first launch of a kernel loads its code onto the GPU: do it once on
    // nothing, untimed.
    add_one<<<1, 1>>>(data, 0);
    if (failed("kernel launch", 0, cudaGetLastError()) ||
        failed("cudaDeviceSynchronize", 0, cudaDeviceSynchronize()))
        goto cleanup;
    if (time_first_touch(data, n, 0, start, stop, &first_ms) ||
        time_first_touch(data, n, 1, start, stop, &prefetched_ms))
        goto cleanup;

    for (size_t i = 0; i < n; i++)
        good += data[i] == 2.0f;
    printf("timed data checked: %s\n", good == n ? "yes" : "no");
    printf("first touch: %.2f ms, prefetched: %.2f ms, speed-up: %.2fx\n", first_ms,
           prefetched_ms, prefetched_ms > 0.0f ? first_ms / prefetched_ms : 0.0f);
    status = 0;

cleanup:
    if (stop)
        cudaEventDestroy(stop);
    if (start)
        cudaEventDestroy(start);
    cudaFree(data);
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
    size_t n = 1000000;

    if (argc == 2 && strcmp(argv[1], "--where") == 0)
        return where();
    if (argc == 2 && strcmp(argv[1], "--probe") == 0)
        return probe();
    if (argc >= 2 && argc <= 3 && strcmp(argv[1], "--timed") == 0) {
        n = argc == 3 ? parse_count(argv[2]) : TIMED_N;
    } else if (argc == 2) {
        n = parse_count(argv[1]);
    } else if (argc > 2) {
        n = 0;
    }
    if (n == 0) {
        fprintf(stderr,
                "usage: %s [n | --where | --probe | --timed [n]]   "
                "(n: number of floats, at least 1)\n",
                argv[0]);
        return 2;
    }
    return argc >= 2 && strcmp(argv[1], "--timed") == 0 ? timed(n) : run(n);
}
