// arch.cpp: which code a build holds for the device, and the launch-time check that needs it. bin/nvcc-cpu
// writes one record per .cu file into the section cudawb_fatbin, from its -arch/-gencode/-code flags:
//   "cudawb-fatbin file=query.cu elf=80:80,90a:90a ptx=80\n"
// elf= the device code (SASS) built, each "sm:from" (sm_80 compiled from compute_80); ptx= the PTX embedded.
// The device is compute capability 9.0, as the H200 (facts/gpu-facts.md, "Which builds run on the H200"):
// SASS runs only on its own architecture (sm_90, sm_90a), PTX of any version up to 9.0 is compiled by the
// driver when the program loads. With neither, every launch and cudaFuncGetAttributes returns 209, which is
// not sticky. Not identical: the check is per program, not per file (a GPU checks each file's kernels).
#include "internal.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
extern const char __start_cudawb_fatbin[] __attribute__((weak));
extern const char __stop_cudawb_fatbin[] __attribute__((weak));
}

namespace rt {
static const int device_cc = 90;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int image_error, image_binary, image_ptx;

// A number with an optional suffix ("90a"): its value, and whether it is tied to one exact device.
static int arch_number(const char *s, const char **end, bool *exact) {
    int v = (int)strtol(s, (char **)end, 10);
    *exact = false;
    while (**end >= 'a' && **end <= 'z') {  // "a" (this device only) or "f" (its family): 9.0 is both
        *exact = true;
        (*end)++;
    }
    return v;
}

// One record's best code for the device: its SASS for 9.0, else its newest PTX up to 9.0.
static void read_record(const char *rec, const char *end, int *sass_ptx, int *ptx) {
    const char *p = strstr(rec, " elf=");
    bool exact;
    if (p && p < end)
        for (p += 5; p < end && *p >= '0' && *p <= '9';) {
            const char *q;
            int sm = arch_number(p, &q, &exact), from = sm;
            if (*q == ':') from = arch_number(q + 1, &q, &exact);
            if (sm == device_cc && from > *sass_ptx) *sass_ptx = from;
            p = *q == ',' ? q + 1 : q;
        }
    p = strstr(rec, " ptx=");
    if (p && p < end)
        for (p += 5; p < end && *p >= '0' && *p <= '9';) {
            const char *q;
            int v = arch_number(p, &q, &exact);
            if ((exact ? v == device_cc : v <= device_cc) && v > *ptx) *ptx = v;
            p = *q == ',' ? q + 1 : q;
        }
}

static void read_images() {
    const char *p = __start_cudawb_fatbin, *stop = __stop_cudawb_fatbin;
    int sass_ptx = 0, ptx = 0, records = 0;
    while (p && p < stop) {
        const char *rec = (const char *)memmem(p, (size_t)(stop - p), "cudawb-fatbin ", 14);
        if (!rec) break;
        const char *end = (const char *)memchr(rec, '\n', (size_t)(stop - rec));
        if (!end) end = stop;
        read_record(rec, end, &sass_ptx, &ptx);
        records++;
        p = end;
    }
    image_binary = device_cc;
    if (records == 0) {  // not built by nvcc-cpu: nothing to say no with
        image_ptx = device_cc;
    } else if (sass_ptx) {
        image_ptx = sass_ptx;
    } else if (ptx) {  // the driver compiles the PTX for 9.0: binaryVersion 90, ptxVersion the PTX's
        image_ptx = ptx;
    } else {
        image_error = cudaErrorNoKernelImageForDevice;
    }
}

int kernel_image(int *binary, int *ptx) {
    pthread_once(&once, read_images);
    if (binary) *binary = image_binary;
    if (ptx) *ptx = image_ptx;
    return image_error;
}
} // namespace rt
