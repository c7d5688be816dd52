// Measures, on a real GPU, the error facts that lesson 04 and its grader rely on beyond facts/gpu-facts.md.
// A sticky error ends the context, so each case runs in its own process:
//   nvcc -arch=native -I kernels -o /tmp/m/errors tests/gpu/measure-errors.cu
//   for c in delay launch oob assert; do /tmp/m/errors $c; echo "rc=$?"; done
//   /tmp/m/errors assert 2>/dev/null   # the device's assert line: on stdout if it still shows here
//   /tmp/m/errors assert 1>/dev/null   # ... on stderr if it shows here
// Prints one line per fact; tests/gpu/README.md is where to record what an H200 printed.
#include <stdio.h>
#include <string.h>
#include <cuda_runtime.h>

#include "faults.cuh"
#include "fill.cuh"

static void show(const char *what, cudaError_t err)
{
    printf("%-64s %d %s\n", what, (int)err, cudaGetErrorName(err));
    fflush(stdout);
}

// How long the faulting kernels wait: write_at with an index inside the buffer, timed with events.
static int delay(void)
{
    float *d = NULL, ms = 0;
    cudaEvent_t start, stop;
    cudaMalloc((void **)&d, sizeof(float));
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start, 0);
    write_at<<<1, 1>>>(d, 0, 1.0f, FAULT_DELAY_TICKS);
    cudaEventRecord(stop, 0);
    show("write_at in bounds, then cudaEventSynchronize", cudaEventSynchronize(stop));
    cudaEventElapsedTime(&ms, start, stop);
    printf("FAULT_DELAY_TICKS (%lld ticks) took %.2f ms\n", FAULT_DELAY_TICKS, ms);
    cudaFree(d);
    return 0;
}

// A refused launch: the code (1 on CUDA 13.0, 9 before), then what the calls after it see.
static int launch(void)
{
    float *d = NULL;
    show("cudaMalloc 4 bytes", cudaMalloc((void **)&d, sizeof(float)));
    fill<<<1, 1025>>>(d, 1, 1.0f);
    show("cudaDeviceSynchronize right after a <<<1, 1025>>> launch", cudaDeviceSynchronize());
    show("then cudaGetLastError", cudaGetLastError());
    fill<<<1, 1025>>>(d, 1, 1.0f);
    show("after a second such launch: cudaGetLastError", cudaGetLastError());
    show("then cudaGetLastError again", cudaGetLastError());
    show("cudaFree (not sticky: expect 0)", cudaFree(d));
    return 0;
}

// A sticky fault from the delayed kernels: where it surfaces, and what cudaFree returns after it.
static int sticky(int assert_mode)
{
    float *d = NULL;
    unsigned int *c = NULL;
    show("cudaMalloc 4000 bytes", cudaMalloc((void **)&d, 1000 * sizeof(float)));
    show("cudaMalloc 4 bytes", cudaMalloc((void **)&c, sizeof(*c)));
    fill<<<4, 256>>>(d, 1000, 1.0f);
    if (assert_mode)
        assert_first_is<<<1, 1>>>(d, 2.0f, FAULT_DELAY_TICKS);
    else
        write_at<<<1, 1>>>(d, 1000 + ((size_t)1 << 32), 1.0f, FAULT_DELAY_TICKS);
    show("cudaGetLastError right after the faulting launch (expect 0)", cudaGetLastError());
    count_equal<<<4, 256>>>(d, 1000, 1.0f, c);
    show("cudaGetLastError after the next launch (expect 0)", cudaGetLastError());
    show("cudaDeviceSynchronize (expect 700 or 710)", cudaDeviceSynchronize());
    show("then cudaGetLastError", cudaGetLastError());
    show("then cudaGetLastError again", cudaGetLastError());
    show("then cudaFree of the 4-byte buffer", cudaFree(c));
    show("then cudaFree of the 4000-byte buffer", cudaFree(d));
    show("then cudaFree(NULL)", cudaFree(NULL));
    return 0;
}

int main(int argc, char **argv)
{
    const char *c = argc == 2 ? argv[1] : "";
    if (strcmp(c, "delay") == 0)
        return delay();
    if (strcmp(c, "launch") == 0)
        return launch();
    if (strcmp(c, "oob") == 0)
        return sticky(0);
    if (strcmp(c, "assert") == 0)
        return sticky(1);
    fprintf(stderr, "usage: %s delay | launch | oob | assert\n", argv[0]);
    return 2;
}
