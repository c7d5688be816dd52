// What every worked example of the book shares: the out-of-memory contract's line.
#ifndef BOOK_EXAMPLE_CUH
#define BOOK_EXAMPLE_CUH

#include <stdio.h>
#include <cuda_runtime.h>

// Prints "error: CALL [of BYTES bytes] failed: STRING" on stderr when err is an error, as
// the lessons' programs do, and returns 1; returns 0 for cudaSuccess, so that a check
// reads `if (check_call(...)) goto cleanup;`.
static int check_call(const char *call, size_t bytes, cudaError_t err)
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

#endif
