// fact: Pitched memory: under compute-sanitizer memcheck a cudaMemcpy3D or cudaMemset3D past its allocation is
// reported as the 2-D ones are ("Program hit cudaErrorInvalidValue (error 1) ... on CUDA API call to ..."),
// and the program exits with --error-exitcode. A cudaGetLastError that returns the last of them is one more.
// test-sanitizer: --tool memcheck --error-exitcode 9
// test-status: 9
// test-stderr: Program hit cudaErrorInvalidValue \(error 1\) due to "invalid argument" on CUDA API call to cudaMemcpy2D\.
// test-stderr: Program hit cudaErrorInvalidValue \(error 1\) due to "invalid argument" on CUDA API call to cudaMemset2D\.
// test-stderr: Program hit cudaErrorInvalidValue \(error 1\) due to "invalid argument" on CUDA API call to cudaMemcpy3D\.
// test-stderr: Program hit cudaErrorInvalidValue \(error 1\) due to "invalid argument" on CUDA API call to cudaMemset3D\.
// test-stderr: Program hit cudaErrorInvalidValue \(error 1\) due to "invalid argument" on CUDA API call to cudaGetLastError\.
// test-stderr: ERROR SUMMARY: 5 errors
#include <string.h>
#include "check.h"

enum { NX = 64, NY = 4, NZ = 3 };

static char host[NZ + 1][NY + 1][NX];

int main(void)
{
    struct cudaExtent volume = make_cudaExtent(NX, NY, NZ);
    struct cudaPitchedPtr d;
    cudaMalloc3D(&d, volume);
    check("cudaMemcpy2D past the allocation returns 1",
          cudaMemcpy2D(d.ptr, d.pitch, host, NX, NX, NY * NZ + 1, cudaMemcpyHostToDevice), 1);
    check("cudaMemset2D past the allocation returns 1", cudaMemset2D(d.ptr, d.pitch, 0, NX, NY * NZ + 1), 1);
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(host, NX, NX, NY);
    p.dstPtr = d;
    p.extent = make_cudaExtent(NX, NY, NZ + 1);
    p.kind = cudaMemcpyHostToDevice;
    check("cudaMemcpy3D past the allocation returns 1", cudaMemcpy3D(&p), 1);
    check("cudaMemset3D past the allocation returns 1", cudaMemset3D(d, 0, make_cudaExtent(NX, NY, NZ + 1)), 1);
    p.extent = volume;
    check("cudaMemcpy3D within it returns 0", cudaMemcpy3D(&p), 0);
    check("cudaMemset3D within it returns 0", cudaMemset3D(d, 0, volume), 0);
    check("cudaDeviceSynchronize returns 0", cudaDeviceSynchronize(), 0);
    check("cudaGetLastError returns the last failure's 1", cudaGetLastError(), 1);
    cudaFree(d.ptr);
    return 0;
}
