// fact: Bandwidth ceilings on the H200: pinned host-to-device copies are several times faster than pageable
// ones (55 vs 7 GB/s), and device-to-device copies reach thousands of GB/s. Checked loosely (ratios), since
// the exact figures belong to the machine.
// test-cpu: skip (bandwidth means nothing on the CPU backend)
#include <stdlib.h>
#include "check.h"

static float copy_ms(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    cudaEvent_t a, b;
    float ms = 0;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaMemcpy(dst, src, bytes, kind); /* warm-up */
    cudaEventRecord(a);
    for (int i = 0; i < 4; i++) cudaMemcpy(dst, src, bytes, kind);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms, a, b);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return ms / 4;
}

int main(void)
{
    size_t bytes = (size_t)1 << 30;
    char *pageable = (char *)malloc(bytes), *pinned = NULL, *d = NULL, *d2 = NULL;
    for (size_t i = 0; i < bytes; i += 4096) pageable[i] = 1;
    cudaMallocHost(&pinned, bytes);
    cudaMalloc(&d, bytes);
    cudaMalloc(&d2, bytes);
    float t_pageable = copy_ms(d, pageable, bytes, cudaMemcpyHostToDevice);
    float t_pinned = copy_ms(d, pinned, bytes, cudaMemcpyHostToDevice);
    float t_d2d = copy_ms(d2, d, bytes, cudaMemcpyDeviceToDevice);
    check("pinned host-to-device copies are at least 3x faster than pageable", t_pageable >= 3 * t_pinned, 1);
    check("a device-to-device copy moves more than 1000 GB/s (read + written)", 2.0 * bytes / (t_d2d * 1e6) > 1000, 1);
    cudaFree(d);
    cudaFree(d2);
    cudaFreeHost(pinned);
    free(pageable);
    return 0;
}
