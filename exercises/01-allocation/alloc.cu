// Lesson 01 (exercise): allocate device memory, clear it, measure it, free it, and
// survive running out of it.
//
//   alloc [n]      allocate n floats (default 1000000) on the device, reuse and check
//                  them, free them
//   alloc --probe  ask the runtime what its edge cases return (zero bytes, NULL, double
//                  free, ...)
//
// Exit status: 0 success, 1 a CUDA call failed (the out-of-memory contract),
// 2 a usage error.
// Your work is at the TODO markers; lessons/01-allocation.md explains why. Grade it:
// make check LESSON=1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "fill.cuh"

#define THREADS 256

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

// One answer of the probe: the question, then the error code's name.
static void answer(const char *question, cudaError_t err)
{
    printf("%s: %s\n", question, cudaGetErrorName(err));
}

// Reuses a buffer of n floats: fills it, clears it, adds 1 and counts the ones.
static int run(size_t n)
{
    // region: declarations
    float *d_data = NULL;        // n floats on the device
    unsigned int *d_count = NULL; // one counter on the device
    size_t bytes = n * sizeof(float);
    // cudaMemGetInfo also answers the total: declare it in step 4.
    size_t free_before = 0, free_after = 0;
    unsigned int count = 0;
    int status = 1;
    cudaError_t err;
    // end region: declarations

    // region: meminfo-before
    /* TODO(step 4): ask the runtime how much device memory is free now, before
     * allocating, into free_before (cudaMemGetInfo). A failed call is reported like any
     * other (print_error). */
    // end region: meminfo-before

    // region: allocate
    /* TODO(step 2): allocate d_data, room for n floats, and d_count, one unsigned int, in
     * device memory. Keep the out-of-memory contract: if an allocation fails, print_error
     * names the call and its size, then goto cleanup releases what is already held, and
     * run() returns 1. */
    if (d_data != NULL) // nothing to report until the allocation above is written
        printf("allocated %zu bytes for %zu floats\n", bytes, n);
    // end region: allocate

    // region: meminfo-after
    /* TODO(step 4): ask again how much device memory is free, into free_after. */
    printf("free device memory dropped by at least %zu bytes: %s\n", bytes,
           free_before >= free_after && free_before - free_after >= bytes ? "yes" : "no");
    // end region: meminfo-after

    // Dirty the buffer on purpose: memory you reuse holds whatever was written last.
    fill<<<blocks_for(n, THREADS), THREADS>>>(d_data, n, 7.0f);

    // region: clear
    /* TODO(step 3): the fill above left 7.0f in every element. Clear all n
     * floats to zero. */
    // end region: clear

    add<<<blocks_for(n, THREADS), THREADS>>>(d_data, n, 1.0f);
    // region: reset-count
    err = cudaMemset(d_count, 0, sizeof(*d_count));
    if (err != cudaSuccess) {
        print_error("cudaMemset", sizeof(*d_count), err);
        goto cleanup;
    }
    // end region: reset-count
    count_equal<<<blocks_for(n, THREADS), THREADS>>>(d_data, n, 1.0f, d_count);
    err = cudaGetLastError(); // a launch error shows only here
    if (err != cudaSuccess) {
        print_error("kernel launch", 0, err);
        goto cleanup;
    }
    // The blocking copy waits for the kernels before it reads the counter.
    err = cudaMemcpy(&count, d_count, sizeof(count), cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
        print_error("cudaMemcpy", sizeof(count), err);
        goto cleanup;
    }
    printf("cleared, then added 1: %u of %zu elements are 1\n", count, n);
    status = 0;

    // region: cleanup
cleanup:
    /* TODO(step 6): release every device buffer this function may hold, on every path
     * that gets here. */
    return status;
    // end region: cleanup
}

// Asks the runtime about its edge cases and prints what it answers
// (facts/gpu-facts.md has the H200's).
static int probe(void)
{
    void *p = NULL;
    cudaError_t err;

    // region: probe
    /* TODO(step 5): replace each cudaErrorNotYetImplemented below by the call the
     * question names, so that the program prints what the runtime really answers. */
    err = cudaErrorNotYetImplemented; // cudaMalloc of 0 bytes into p
    printf("cudaMalloc(&p, 0): %s, p is %s\n", cudaGetErrorName(err),
           p == NULL ? "NULL" : "not NULL");
    answer("cudaFree(NULL)", cudaErrorNotYetImplemented);
    answer("cudaMalloc(NULL, 16)", cudaErrorNotYetImplemented);

    err = cudaMalloc(&p, 16);
    if (err != cudaSuccess) {
        print_error("cudaMalloc", 16, err);
        return 1;
    }
    cudaFree(p);
    answer("cudaFree of a freed pointer",
           cudaErrorNotYetImplemented); // free p a second time
    p = NULL;
    answer("cudaFree of a host pointer",
           cudaErrorNotYetImplemented); // free the address of an int on the stack

    // A failed call also sets the last error: read it twice.
    err = cudaErrorNotYetImplemented;
    printf("cudaGetLastError: %s, then %s\n", cudaGetErrorName(err),
           cudaGetErrorName(cudaErrorNotYetImplemented));

    err = cudaErrorNotYetImplemented; // cudaMalloc of 2^50 bytes into p
    printf("cudaMalloc of 2^50 bytes: %s, p is %s\n", cudaGetErrorName(err),
           p == NULL ? "NULL" : "not NULL");
    err = cudaMalloc(&p, 16); // is out of memory sticky? (clear the last error first)
    answer("cudaMalloc of 16 bytes after that", err);
    cudaFree(p);
    // end region: probe
    return err == cudaSuccess ? 0 : 1;
}

int main(int argc, char **argv)
{
    size_t n = 1000000;
    char *end = NULL;

    if (argc == 2 && strcmp(argv[1], "--probe") == 0)
        return probe();
    if (argc == 2) {
        n = strtoull(argv[1], &end, 10);
        if (*argv[1] == '\0' || *argv[1] == '-' || *end != '\0' || n == 0 ||
            n > SIZE_MAX / sizeof(float)) {
            fprintf(stderr,
                    "usage: %s [n | --probe]   (n: number of floats, at least 1)\n",
                    argv[0]);
            return 2;
        }
    } else if (argc > 2) {
        fprintf(stderr, "usage: %s [n | --probe]\n", argv[0]);
        return 2;
    }
    return run(n);
}
