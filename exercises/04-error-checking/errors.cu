// Lesson 04 (exercise): check every CUDA call, tell sticky errors from the others, clean
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
// Your work is at the TODO markers; lessons/04-error-checking.md explains why. Grade it:
// make check LESSON=4
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
/* TODO(step 3): make CHECK_CUDA(call) run the call exactly once and, when it fails,
 *   - print one line on stderr:  error: FILE:LINE: CALL failed: NAME: STRING
 *     FILE: this file's name, without folders; LINE: the line where CHECK_CUDA(...) is
 *     written; CALL: the call's text as written; NAME and STRING: what the runtime calls
 *     the error that call returned,
 *     e.g.  error: errors.cu:86: cudaMalloc((void **)&d_data, bytes) failed:
 *           cudaErrorMemoryAllocation: out of memory
 *   - keep that error in err, where the cleanup reads it;
 *   - leave through cleanup.
 * It is used in a function that declares `cudaError_t err` and has a `cleanup:` label.
 * This placeholder runs the call and ignores what it returns. */
#define CHECK_CUDA(call) ((void)(call))
// end region: check-cuda

// region: is-sticky
// True for the errors after which the context is lost: every later call in the process
// fails the same way.
static int is_sticky(cudaError_t err)
{
    /* TODO(step 5): answer 1 for the errors that lose the context (the chapter's table
     * names them: at least the illegal memory access and the failed device assert), 0
     * for all others. */
    (void)err;
    return 0;
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
    /* TODO(step 3): a launch that cannot start returns nothing; report its error on the
     * very next line. */
    // end region: launch

    // region: faults
    if (mode == MODE_OUT_OF_BOUNDS)
        write_at<<<1, 1>>>(d_data, n + FAR_PAST_THE_END, 1.0f, FAULT_DELAY_TICKS);
    else if (mode == MODE_ASSERT)
        assert_first_is<<<1, 1>>>(d_data, 2.0f, FAULT_DELAY_TICKS);
    /* TODO(step 3): and check this launch too. */
    // end region: faults

    count_equal<<<blocks_for(n, THREADS), THREADS>>>(d_data, n, 1.0f, d_count);
    /* TODO(step 3): and this one. */

    // region: wait
    /* TODO(step 4): wait here for the kernels to finish, and report on this line what
     * went wrong while they ran. */
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
        /* TODO(step 2): release every device buffer this function may hold, on every path
         * that gets here. */
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
