// the trace (grader/README.md): CUDAWB_DEVICE_BUDGET=BYTES gives the program a device-memory budget that the
// trace keeps, the same on both backends: cudaMemGetInfo's free is what is left of it, and an allocation
// past it (device, pitched, stream-ordered or managed) fails as a real one does: 2, the pointer NULL, the
// last error set; recorded as a failed call (status=2), not an injected one.
// test-env: CUDAWB_DEVICE_BUDGET=5242880
// test-report: ^call n=[0-9]+ fn=cudaMemGetInfo class=op status=0 site=[^ ]+ free=5242880 total=[0-9]+
// test-report: ^call n=[0-9]+ fn=cudaMalloc class=alloc status=2 site=[^ ]+ bytes=4194304 alloc=2 ptr=null printed=
// test-report: ^call n=[0-9]+ fn=cudaMallocManaged class=alloc status=2 site=[^ ]+ bytes=1 flags=1 alloc=4 ptr=null printed=
// test-report: ^peak 5242880$
// test-report: ^live 0 0$
// test-shim: linked (gpu-compare.sh links the grader's trace in, as grader/lib/build.sh does)
#include "check.h"

#define MIB ((size_t)1 << 20)

int main(void)
{
    size_t free_b = 0, total = 0, pitch = 0;
    void *a = NULL, *b = (void *)&free_b, *p = NULL, *m = (void *)&free_b, *c = NULL;
    cudaStream_t s = NULL;
    check("cudaMemGetInfo", cudaMemGetInfo(&free_b, &total), 0);
    check("free: the whole budget", free_b == 5 * MIB, 1);
    check("total: the device's own", total > 5 * MIB, 1);
    check("4 MiB fit", cudaMalloc(&a, 4 * MIB), 0);
    check("4 MiB more do not: out of memory", cudaMalloc(&b, 4 * MIB), 2);
    check("and the pointer is NULL", b == NULL, 1);
    check("cudaGetLastError reports it", cudaGetLastError(), 2);
    check("once", cudaGetLastError(), 0);
    check("cudaMemGetInfo again", cudaMemGetInfo(&free_b, &total), 0);
    check("1 MiB left: the failed one took nothing", free_b == MIB, 1);
    check("a pitched 1 MiB fits (rows of 1000 bytes: pitch 1024)", cudaMallocPitch(&p, &pitch, 1000, 1024), 0);
    check("the pitch", (long long)pitch, 1024);
    check("managed memory counts too: 1 byte does not fit", cudaMallocManaged(&m, 1, cudaMemAttachGlobal), 2);
    check("and its pointer is NULL", m == NULL, 1);
    check("cudaPeekAtLastError reports it", cudaPeekAtLastError(), 2);
    check("cudaGetLastError too", cudaGetLastError(), 2);
    check("nothing left", cudaMemGetInfo(&free_b, &total) == 0 && free_b == 0, 1);
    check("free the 4 MiB", cudaFree(a), 0);
    check("the stream", cudaStreamCreate(&s), 0);
    check("4 MiB in stream order fit again", cudaMallocAsync(&c, 4 * MIB, s), 0);
    check("512 bytes more do not", cudaMallocAsync(&a, 512, s), 2);
    check("cudaGetLastError reports it", cudaGetLastError(), 2);
    check("cudaFreeAsync", cudaFreeAsync(c, s), 0);
    check("cudaStreamSynchronize", cudaStreamSynchronize(s), 0);
    cudaFree(p);
    cudaStreamDestroy(s);
    return 0;
}
