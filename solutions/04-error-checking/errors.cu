// Lesson 04: check every CUDA call, tell sticky errors from the others, clean
// up on every path.
//
//   errors [n]              fill n floats (default 1000000) on the device, count them,
//                           free everything
//   errors --bad-launch     the same, but the fill is launched with 1025 threads per
//                           block: it cannot start
//   errors --out-of-bounds  the same, plus a kernel that writes 16 GiB past the end of
//                           the buffer
//   errors --assert         the same, plus a kernel whose device assert fails
//
// Exit status: 0 success, 1 a CUDA call failed (the out-of-memory contract) or the result
// is wrong, 2 a usage error. A failed call prints one line on stderr:
//   error: FILE:LINE: CALL failed: NAME: STRING
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "faults.cuh"
#include "fill.cuh"

#define THREADS 256
#define TOO_MANY_THREADS 1025 // one more than a block may hold
// 2^32 floats, 16 GiB: far outside any memory the process has mapped (facts/gpu-facts.md:
// 700 at the next sync).
#define FAR_PAST_THE_END ((size_t)1 << 32)

enum mode { MODE_NORMAL, MODE_BAD_LAUNCH, MODE_OUT_OF_BOUNDS, MODE_ASSERT };

// region: base-name
// The file's name without its folders: __FILE__ is whatever path the compiler was given.
static inline const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}
// end region: base-name

// region: check-cuda
// Runs a CUDA call once. When it fails: one line on stderr saying where, what and why,
// the error kept in err for the cleanup, and out through cleanup. For functions that
// declare `cudaError_t err` and `cleanup:`.
#define CHECK_CUDA(call)                                                              \
    do {                                                                              \
        /* once: the call may allocate, or clear the last error */                    \
        cudaError_t check_err_ = (call);                                              \
        if (check_err_ != cudaSuccess) {                                              \
            fprintf(stderr, "error: %s:%d: %s failed: %s: %s\n", base_name(__FILE__), \
                    __LINE__, #call,                                                  \
                    cudaGetErrorName(check_err_), cudaGetErrorString(check_err_));    \
            err = check_err_;                                                         \
            goto cleanup;                                                             \
        }                                                                             \
    } while (0)
// end region: check-cuda

// region: is-sticky
// True for the errors after which the context is lost: every later call in the process
// fails the same way.
static int is_sticky(cudaError_t err)
{
    switch (err) {
    case cudaErrorIllegalAddress:      // 700, measured on the H200
    case cudaErrorAssert:              // 710, measured on the H200
    case cudaErrorHardwareStackError:  // 714 to 719: the runtime's documentation
                                       // says the same of these
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchFailure:
        return 1;
    default:
        return 0;
    }
}
// end region: is-sticky

// Fills n floats with 1 and counts them; in the fault modes, something goes
// wrong on the way.
static int run(size_t n, enum mode mode)
{
    // region: declarations
    float *d_data = NULL;          // n floats on the device
    unsigned int *d_count = NULL;  // one counter on the device
    size_t bytes = n * sizeof(float);
    unsigned int threads = mode == MODE_BAD_LAUNCH ? TOO_MANY_THREADS : THREADS;
    unsigned int count = 0;
    int status = 1;                // becomes 0 only at the end of the success path
    cudaError_t err = cudaSuccess; // the failed call's error, for the cleanup
    // end region: declarations

    // region: allocate
    CHECK_CUDA(cudaMalloc((void **)&d_data, bytes));
    CHECK_CUDA(cudaMalloc((void **)&d_count, sizeof(*d_count)));
    CHECK_CUDA(cudaMemset(d_count, 0, sizeof(*d_count)));
    printf("allocated %zu bytes for %zu floats\n", bytes, n);
    // end region: allocate

    // region: launch
    fill<<<blocks_for(n, threads), threads>>>(d_data, n, 1.0f);
    // A launch that cannot start says so here, and nowhere else.
    CHECK_CUDA(cudaGetLastError());
    // end region: launch

    // region: faults
    if (mode == MODE_OUT_OF_BOUNDS)
        write_at<<<1, 1>>>(d_data, n + FAR_PAST_THE_END, 1.0f, FAULT_DELAY_TICKS);
    else if (mode == MODE_ASSERT)
        assert_first_is<<<1, 1>>>(d_data, 2.0f, FAULT_DELAY_TICKS);
    CHECK_CUDA(cudaGetLastError());
    // end region: faults

    count_equal<<<blocks_for(n, THREADS), THREADS>>>(d_data, n, 1.0f, d_count);
    CHECK_CUDA(cudaGetLastError());

    // region: wait
    // A kernel that failed while running says so here.
    CHECK_CUDA(cudaDeviceSynchronize());
    // end region: wait
    CHECK_CUDA(cudaMemcpy(&count, d_count, sizeof(count), cudaMemcpyDeviceToHost));
    printf("filled with 1: %u of %zu elements are 1\n", count, n);
    // region: self-check
    if ((size_t)count != n) {
        fprintf(stderr,
                "error: %s:%d: only %u of %zu elements are 1: a failure went unnoticed\n",
                base_name(__FILE__), __LINE__, count, n);
        goto cleanup;
    }
    // end region: self-check
    status = 0;

    // region: cleanup
cleanup:
    if (!is_sticky(err)) {
        // cudaFree(NULL) does nothing and returns cudaSuccess, so one cleanup serves
        // every exit path.
        cudaFree(d_count);
        cudaFree(d_data);
    }
    // After a sticky error no CUDA call can succeed (cudaFree returns the same
    // error): the process must end, and the driver takes back all of its device
    // memory when it does.
    return status;
    // end region: cleanup
}

int main(int argc, char **argv)
{
    size_t n = 1000000;
    enum mode mode = MODE_NORMAL;
    char *end = NULL;

    if (argc > 2) {
        fprintf(stderr, "usage: %s [n | --bad-launch | --out-of-bounds | --assert]\n",
                argv[0]);
        return 2;
    }
    if (argc == 2 && strcmp(argv[1], "--bad-launch") == 0) {
        mode = MODE_BAD_LAUNCH;
    } else if (argc == 2 && strcmp(argv[1], "--out-of-bounds") == 0) {
        mode = MODE_OUT_OF_BOUNDS;
    } else if (argc == 2 && strcmp(argv[1], "--assert") == 0) {
        mode = MODE_ASSERT;
    } else if (argc == 2) {
        n = strtoull(argv[1], &end, 10);
        if (*argv[1] == '\0' || *argv[1] == '-' || *end != '\0' || n == 0 ||
            n > SIZE_MAX / sizeof(float)) {
            fprintf(stderr,
                    "usage: %s [n | --bad-launch | --out-of-bounds | --assert]   "
                    "(n: floats, at least 1)\n",
                    argv[0]);
            return 2;
        }
    }
    return run(n, mode);
}
