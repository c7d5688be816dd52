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
    const char *fix = err == cudaErrorInsufficientDriver ? FIX_NO_DRIVER :
                      err == cudaErrorNoDevice ? FIX_NO_DEVICE : NULL;
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
    size_t n = 1000000, bytes, i, good = 0, free_bytes = 0, total_bytes = 0;
    int count = 0, runtime = 0, driver = 0, major = 0, minor = 0, sms = 0, unified = 0,
        managed = 0;
    int concurrent = 0, blocks, status = 1;
    double sum = 0;
    struct cudaFuncAttributes attr;
    cudaError_t err = cudaSuccess;
    char *end;

    if (argc > 2 ||
        (argc == 2 && ((n = strtoull(argv[1], &end, 10)) == 0 || *end != '\0'))) {
        fprintf(stderr, "usage: %s [n]   (n > 0 floats)\n", argv[0]);
        return 2;
    }
    bytes = n * sizeof(float);

    // region: device-query
    // The first call on the GPU is where a missing driver (35) or device (100) shows.
    CHECK(cudaGetDeviceCount(&count), "cudaGetDeviceCount", 0);
    CHECK(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion", 0);
    CHECK(cudaDriverGetVersion(&driver), "cudaDriverGetVersion", 0);
    CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, DEVICE),
          "cudaDeviceGetAttribute", 0);
    CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, DEVICE),
          "cudaDeviceGetAttribute", 0);
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, DEVICE),
          "cudaDeviceGetAttribute", 0);
    CHECK(cudaDeviceGetAttribute(&unified, cudaDevAttrUnifiedAddressing, DEVICE),
          "cudaDeviceGetAttribute", 0);
    CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, DEVICE),
          "cudaDeviceGetAttribute", 0);
    CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, DEVICE),
          "cudaDeviceGetAttribute", 0);
    CHECK(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo", 0);
    printf("devices: %d\n", count);
    printf("compute capability: %d.%d\n", major, minor);
    printf("multiprocessors: %d\n", sms);
    printf("global memory: %zu bytes\n", total_bytes);
    printf("free memory: %zu bytes\n", free_bytes);
    printf("unified addressing: %s\n", unified ? "yes" : "no");
    printf("managed memory: %s\n", managed ? "yes" : "no");
    printf("concurrent managed access: %s\n", concurrent ? "yes" : "no");
    print_version("runtime", runtime);
    print_version("driver", driver);
    // end region: device-query

    // region: startup-check
    // Does this build hold code the GPU can run: its own SASS, or PTX the driver compiles
    // for it? A launch would tell too, but only through cudaGetLastError: the synchronize
    // after a launch that could not start returns 0.
    err = cudaFuncGetAttributes(&attr, scale);
    if (err == cudaErrorNoKernelImageForDevice) {
        fprintf(stderr, "error: cudaFuncGetAttributes(scale) failed: %s (fix: "
                        FIX_NO_KERNEL_IMAGE ")\n",
                cudaGetErrorString(err), major, minor, major, minor);
        goto cleanup;
    }
    CHECK(err, "cudaFuncGetAttributes", 0);
    printf("kernel scale: binary %d.%d, PTX %d.%d\n", attr.binaryVersion / 10,
           attr.binaryVersion % 10, attr.ptxVersion / 10, attr.ptxVersion % 10);
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
    // A launch that could not start says so here, once.
    CHECK(cudaGetLastError(), "launch of scale", 0);
    // Errors while it ran say so here.
    CHECK(cudaDeviceSynchronize(), "cudaDeviceSynchronize", 0);
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
