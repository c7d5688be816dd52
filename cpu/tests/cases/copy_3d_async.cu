// fact: Pitched memory: cudaMemcpy3DAsync and cudaMemset3DAsync run in stream order; positions are bytes (x),
// rows (y) and slices (z) of the pitched pointer (CUDA's documentation: the element of linear memory is a
// byte), so a sub-box copied device -> device between two cudaMalloc3D volumes lands where its positions say.
#include <string.h>
#include "check.h"

enum { NX = 100, NY = 4, NZ = 6 };

int main(void)
{
    struct cudaExtent volume = make_cudaExtent(NX * sizeof(int), NY, NZ);
    struct cudaPitchedPtr a, b;
    cudaMalloc3D(&a, volume);
    cudaMalloc3D(&b, volume);
    int *host = NULL, *out = NULL;
    cudaMallocHost(&host, NX * NY * NZ * sizeof(int));
    cudaMallocHost(&out, NX * NY * NZ * sizeof(int));
    for (int i = 0; i < NX * NY * NZ; i++) host[i] = i;
    cudaStream_t s;
    cudaStreamCreate(&s);

    struct cudaMemcpy3DParms up;
    memset(&up, 0, sizeof up);
    up.srcPtr = make_cudaPitchedPtr(host, NX * sizeof(int), NX, NY);
    up.dstPtr = a;
    up.extent = volume;
    up.kind = cudaMemcpyHostToDevice;
    check("cudaMemcpy3DAsync host -> device returns 0", cudaMemcpy3DAsync(&up, s), 0);
    check("cudaMemset3DAsync returns 0", cudaMemset3DAsync(b, 0xff, volume, s), 0);

    // ints 2..11 of rows 1-2 of slices 2-4 of a, to ints 1..10 of rows 0-1 of slices 1-3 of b
    struct cudaMemcpy3DParms box;
    memset(&box, 0, sizeof box);
    box.srcPtr = a;
    box.srcPos = make_cudaPos(2 * sizeof(int), 1, 2);
    box.dstPtr = b;
    box.dstPos = make_cudaPos(1 * sizeof(int), 0, 1);
    box.extent = make_cudaExtent(10 * sizeof(int), 2, 3);
    box.kind = cudaMemcpyDeviceToDevice;
    check("cudaMemcpy3DAsync of a sub-box device -> device returns 0", cudaMemcpy3DAsync(&box, s), 0);

    struct cudaMemcpy3DParms down;
    memset(&down, 0, sizeof down);
    down.srcPtr = b;
    down.dstPtr = make_cudaPitchedPtr(out, NX * sizeof(int), NX, NY);
    down.extent = volume;
    down.kind = cudaMemcpyDefault;
    check("cudaMemcpy3DAsync device -> pinned host (cudaMemcpyDefault) returns 0", cudaMemcpy3DAsync(&down, s), 0);
    check("cudaStreamSynchronize returns 0", cudaStreamSynchronize(s), 0);

    int right = 1;
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++) {
                int in_box = z >= 1 && z < 4 && y < 2 && x >= 1 && x < 11;
                int want = in_box ? ((z + 1) * NY + (y + 1)) * NX + (x + 1) : -1;
                right &= out[(z * NY + y) * NX + x] == want;
            }
    check("the sub-box holds a's elements from its positions, the rest of b the memset's bytes", right, 1);

    cudaStreamDestroy(s);
    cudaFreeHost(host);
    cudaFreeHost(out);
    cudaFree(a.ptr);
    cudaFree(b.ptr);
    check("no error is left behind", cudaGetLastError(), 0);
    return 0;
}
