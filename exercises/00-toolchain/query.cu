// Lesson 00: ask the CUDA runtime what it runs on, check at start-up that this build's
// kernel can run on this GPU (and say how to fix it when it cannot), then run the kernel
// and check what it computed.
//
//   query [n]   print the device query, check the kernel's code, scale n floats
//               (default 1000000) on the device
//
// Exit status: 0 success, 1 a CUDA call failed (the out-of-memory contract; with no
// driver, no device or no code for this GPU the error line says how to fix it) or the
// result is wrong, 2 a usage error.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "toolchain.cuh"

#define THREADS 256
#define MAX_BLOCKS 4096 // the kernel strides over the rest
#define DEVICE 0

// region: print-error
// The one error line: the call, its bytes where it has any, CUDA's string and, for an
// error that means the machine or the build is not ready for CUDA at all, how to fix it.
static void print_error(const char *call, size_t bytes, cudaError_t err)
{
    const char *fix = NULL;
    // TODO: for 35 (cudaErrorInsufficientDriver) and 100 (cudaErrorNoDevice),
    // fix = FIX_NO_DRIVER or FIX_NO_DEVICE (kernels/toolchain.cuh): those errors mean the
    // machine is not ready, not the program wrong.
    fprintf(stderr, "error: %s", call);
    if (bytes > 0)
        fprintf(stderr, " of %zu bytes", bytes);
    fprintf(stderr, " failed: %s", cudaGetErrorString(err));
    if (fix != NULL)
        fprintf(stderr, " (fix: %s)", fix);
    fputc('\n', stderr);
}
// end region: print-error

// Runs a CUDA call once; on failure prints the error line and leaves through cleanup. For
// main, which declares `cudaError_t err` and `cleanup:`.
#define CHECK(call, name, bytes)           \
    do {                                   \
        err = (call);                      \
        if (err != cudaSuccess) {          \
            print_error(name, bytes, err); \
            goto cleanup;                  \
        }                                  \
    } while (0)

// "13.0" for 13000, as CUDA writes its versions (1000 x major + 10 x minor).
static void print_version(const char *what, int version)
{
    printf("%s version: %d.%d\n", what, version / 1000, version % 1000 / 10);
}

int main(int argc, char **argv)
{
    float *d_in = NULL, *d_out = NULL, *h_in = NULL, *h_out = NULL;
    size_t n = 1000000, bytes, i, good = 0;
    int blocks, status = 1;
    double sum = 0;
    cudaError_t err = cudaSuccess;
    char *end;

    if (argc > 2 ||
        (argc == 2 && ((n = strtoull(argv[1], &end, 10)) == 0 || *end != '\0'))) {
        fprintf(stderr, "usage: %s [n]   (n > 0 floats)\n", argv[0]);
        return 2;
    }
    bytes = n * sizeof(float);

    // region: device-query
    // TODO: in a block of its own ({ ... }: CHECK's goto may not jump past a
    // declaration that initializes), declare int count, runtime, driver, major, minor,
    // sms, unified, managed, concurrent and size_t free_bytes, total_bytes (nvcc warns
    // about a variable set and never used, so declare them only when you use them).
    // Ask the runtime, checking each call with CHECK: cudaGetDeviceCount(&count) first
    // (the first call on the GPU is where a missing driver or device shows),
    // cudaRuntimeGetVersion(&runtime), cudaDriverGetVersion(&driver),
    // cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, DEVICE) and
    // likewise minor (...Minor), sms (cudaDevAttrMultiProcessorCount), unified
    // (cudaDevAttrUnifiedAddressing), managed (cudaDevAttrManagedMemory), concurrent
    // (cudaDevAttrConcurrentManagedAccess), then
    // cudaMemGetInfo(&free_bytes, &total_bytes). Then print them, one line each, as
    // the chapter shows:
    (void)print_version;
    //   devices: 1 / compute capability: 9.0 / multiprocessors: 132 /
    //   global memory: N bytes / free memory: N bytes / unified addressing: yes /
    //   managed memory: yes / concurrent managed access: yes /
    //   print_version("runtime", runtime) / print_version("driver", driver)
    // end region: device-query

    // region: startup-check
    // Does this build hold code the GPU can run: its own SASS, or PTX the driver compiles
    // for it? A launch would tell too, but only through cudaGetLastError: the synchronize
    // after a launch that could not start returns 0.
    // TODO: in a block of its own, struct cudaFuncAttributes attr and
    // err = cudaFuncGetAttributes(&attr, scale).
    //   On cudaErrorNoKernelImageForDevice (209) print one line,
    // error: cudaFuncGetAttributes(scale) failed: <its string> (fix: FIX_NO_KERNEL_IMAGE)
    // (FIX_NO_KERNEL_IMAGE is a printf format: major, minor, major, minor) and leave
    // through cleanup; any other error through CHECK. Then print
    // "kernel scale: binary 9.0, PTX 9.0" from attr.binaryVersion and
    // attr.ptxVersion (90 is 9.0).
    // end region: startup-check

    CHECK(cudaMalloc((void **)&d_in, bytes), "cudaMalloc", bytes);
    CHECK(cudaMalloc((void **)&d_out, bytes), "cudaMalloc", bytes);
    h_in = (float *)malloc(bytes);
    h_out = (float *)malloc(bytes);
    if (h_in == NULL || h_out == NULL) {
        fprintf(stderr, "error: malloc of %zu bytes failed\n", bytes);
        goto cleanup;
    }
    for (i = 0; i < n; i++)
        h_in[i] = (float)(i % 1000);
    CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice), "cudaMemcpy", bytes);

    // region: launch
    blocks = n / THREADS + 1 < MAX_BLOCKS ? (int)(n / THREADS + 1) : MAX_BLOCKS;
    scale<<<blocks, THREADS>>>(d_in, d_out, n);
    // TODO: check the launch (cudaGetLastError: a launch that could not start says
    // so there, once), then cudaDeviceSynchronize (errors while the kernel ran), each
    // with CHECK.
    // end region: launch

    CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy", bytes);
    for (i = 0; i < n; i++) {
        good += h_out[i] == 2.0f * (float)(i % 1000) + 1.0f;
        sum += h_out[i];
    }
    printf("scaled %zu floats on the device: %zu of %zu as expected\n", n, good, n);
    printf("sum of the results: %.0f\n", sum);
    status = good == n ? 0 : 1;

cleanup:
    free(h_in);
    free(h_out);
    cudaFree(d_in);
    cudaFree(d_out);
    return status;
}
