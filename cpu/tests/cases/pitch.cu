// fact: Pitched memory: cudaMallocPitch rounds rows up to a multiple of 512 bytes (1..512 -> 512, 513 -> 1024,
// 1000 -> 1024, 1025 -> 1536, 4000 and 4004 -> 4096, 10000 -> 10240, 16004 -> 16384, 300 floats -> 1536); the
// base pointer is 512-byte aligned; texturePitchAlignment is 32 and memPitch 2147483647.
#include <stdint.h>
#include "check.h"

int main(void)
{
    size_t widths[] = {1, 512, 513, 1000, 1025, 4000, 4004, 10000, 16004, 300 * sizeof(float)};
    size_t want[] = {512, 512, 1024, 1024, 1536, 4096, 4096, 10240, 16384, 1536};
    char fact[128];
    for (int i = 0; i < 10; i++) {
        void *p = NULL;
        size_t pitch = 0;
        cudaMallocPitch(&p, &pitch, widths[i], 4);
        snprintf(fact, sizeof fact, "a row of %zu bytes gets a pitch of %zu", widths[i], want[i]);
        check(fact, pitch, want[i]);
        snprintf(fact, sizeof fact, "the base pointer for width %zu is 512-byte aligned", widths[i]);
        check(fact, (uintptr_t)p % 512, 0);
        cudaFree(p);
    }
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    check("texturePitchAlignment is 32", prop.texturePitchAlignment, 32);
    check("memPitch is 2147483647", prop.memPitch, 2147483647);
    return 0;
}
