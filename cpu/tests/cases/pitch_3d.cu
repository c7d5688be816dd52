// fact: Pitched memory: cudaMalloc3D rounds rows up to a multiple of 512 bytes as cudaMallocPitch does (1200 ->
// 1536, 4000 and 4004 -> 4096, 16004 -> 16384), returns xsize = the width and ysize = the height asked for,
// and a 512-byte aligned base pointer.
// fact: Pitched memory: a host -> 3-D device -> host round trip through cudaMemcpy3D (5 slices of 3 rows of
// 300 floats) returns 0 and brings every element back; the padding of either side is not copied; a depth
// past the allocation returns 1, a width > pitch 12; cudaMemset3D returns 0, and 1 with a width > pitch or
// past the allocation.
// fact: Pitched memory: cudaMalloc3D of 2^40 x 1024 x 1024 bytes returns 2; the next cudaGetLastError
// returns 2 and the one after it 0.
#include <stdint.h>
#include <string.h>
#include "check.h"

enum { NX = 300, NY = 3, NZ = 5, HOST_PITCH = 400 * sizeof(float) };

static float src[NZ][NY][NX], back[NZ][NY][400];
static unsigned char raw[NZ][NY][1536], wide[NZ][NY][2048];

int main(void)
{
    size_t widths[] = {1200, 4000, 4004, 16004};
    size_t want[] = {1536, 4096, 4096, 16384};
    char fact[128];
    for (int i = 0; i < 4; i++) {
        struct cudaPitchedPtr p;
        memset(&p, 0, sizeof p);
        cudaMalloc3D(&p, make_cudaExtent(widths[i], 7, 3));
        snprintf(fact, sizeof fact, "cudaMalloc3D: a row of %zu bytes gets a pitch of %zu", widths[i], want[i]);
        check(fact, p.pitch, want[i]);
        snprintf(fact, sizeof fact, "cudaMalloc3D of width %zu: xsize is the width, ysize the height", widths[i]);
        check(fact, p.xsize == widths[i] && p.ysize == 7, 1);
        snprintf(fact, sizeof fact, "cudaMalloc3D of width %zu: the base pointer is 512-byte aligned", widths[i]);
        check(fact, (uintptr_t)p.ptr % 512, 0);
        cudaFree(p.ptr);
    }

    struct cudaExtent volume = make_cudaExtent(NX * sizeof(float), NY, NZ);
    struct cudaPitchedPtr d;
    check("cudaMalloc3D of 5 slices of 3 rows of 300 floats returns 0", cudaMalloc3D(&d, volume), 0);
    check("... with a pitch of 1536", d.pitch, 1536);
    // the whole allocation, padding included, to a known byte first
    check("cudaMemset3D returns 0", cudaMemset3D(d, 0x5a, make_cudaExtent(d.pitch, NY, NZ)), 0);

    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++) src[z][y][x] = (float)(z * 10000 + y * 1000 + x);
    struct cudaMemcpy3DParms up;
    memset(&up, 0, sizeof up);
    up.srcPtr = make_cudaPitchedPtr(src, NX * sizeof(float), NX, NY);
    up.dstPtr = d;
    up.extent = volume;
    up.kind = cudaMemcpyHostToDevice;
    check("cudaMemcpy3D host -> device returns 0", cudaMemcpy3D(&up), 0);

    memset(back, 0x77, sizeof back);
    struct cudaMemcpy3DParms down;
    memset(&down, 0, sizeof down);
    down.srcPtr = d;
    down.dstPtr = make_cudaPitchedPtr(back, HOST_PITCH, NX, NY);
    down.extent = volume;
    down.kind = cudaMemcpyDeviceToHost;
    check("cudaMemcpy3D device -> host returns 0", cudaMemcpy3D(&down), 0);
    int same = 1, host_pad = 1;
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++) {
            for (int x = 0; x < NX; x++) same &= back[z][y][x] == src[z][y][x];
            const unsigned char *pad = (const unsigned char *)&back[z][y][NX];
            for (size_t i = 0; i < HOST_PITCH - NX * sizeof(float); i++) host_pad &= pad[i] == 0x77;
        }
    check("every element of the 5 x 3 x 300 volume comes back", same, 1);
    check("the host rows' padding is not written", host_pad, 1);

    // the device rows' padding, read back whole: still the memset's byte
    struct cudaMemcpy3DParms whole = down;
    whole.dstPtr = make_cudaPitchedPtr(raw, d.pitch, d.pitch, NY);
    whole.extent = make_cudaExtent(d.pitch, NY, NZ);
    check("cudaMemcpy3D of whole pitched rows returns 0", cudaMemcpy3D(&whole), 0);
    int dev_pad = 1;
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (size_t i = NX * sizeof(float); i < d.pitch; i++) dev_pad &= raw[z][y][i] == 0x5a;
    check("the device rows' padding is not written", dev_pad, 1);

    struct cudaMemcpy3DParms bad = down;
    bad.extent.depth = NZ + 1;
    check("cudaMemcpy3D with a depth past the allocation returns 1", cudaMemcpy3D(&bad), 1);
    bad = down;
    bad.extent.width = d.pitch + 1;
    bad.dstPtr = make_cudaPitchedPtr(wide, sizeof wide[0][0], d.pitch, NY);  // room for it, should it run
    check("cudaMemcpy3D with a width > the pitch returns 12", cudaMemcpy3D(&bad), 12);
    check("cudaMemset3D with a width > the pitch returns 1",
          cudaMemset3D(d, 0, make_cudaExtent(d.pitch + 1, NY, NZ)), 1);
    check("cudaMemset3D past the allocation returns 1", cudaMemset3D(d, 0, make_cudaExtent(NX, NY, NZ + 1)), 1);
    cudaGetLastError();
    cudaFree(d.ptr);

    struct cudaPitchedPtr huge;
    memset(&huge, 0, sizeof huge);
    check("cudaMalloc3D of 2^40 x 1024 x 1024 bytes returns 2",
          cudaMalloc3D(&huge, make_cudaExtent((size_t)1 << 40, 1024, 1024)), 2);
    check("the next cudaGetLastError returns 2", cudaGetLastError(), 2);
    check("the one after it returns 0", cudaGetLastError(), 0);
    return 0;
}
