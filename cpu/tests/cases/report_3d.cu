// the trace (grader/README.md): cudaMalloc3D records its extent, the pitch and the new allocation;
// cudaMemcpy3D(Async) names where each side starts (pointer + position) with its pitch and slice height;
// cudaMemset3D(Async) its pointer, pitch, slice height, value and extent; a failed cudaMalloc3D its pitch and
// ptr=null.
// test-report: ^call n=1 fn=cudaMalloc3D class=alloc status=0 site=report_3d.cu:[0-9]+ width=1200 height=3 depth=5 pitch=1536 alloc=1 ptr=alloc#1 
// test-report: ^call n=2 fn=cudaMemcpy3D class=op status=0 site=report_3d.cu:[0-9]+ dst=alloc#1 dpitch=1536 dysize=3 src=host spitch=1200 sysize=3 width=1200 height=3 depth=5 kind=HostToDevice 
// test-report: ^call n=3 fn=cudaStreamCreate class=create status=0 .* stream=stream#1 
// test-report: ^call n=4 fn=cudaMemcpy3DAsync class=op status=0 site=report_3d.cu:[0-9]+ dst=host dpitch=16 dysize=2 src=alloc#1\+10760 spitch=1536 sysize=3 width=16 height=2 depth=3 kind=DeviceToHost stream=stream#1 
// test-report: ^call n=5 fn=cudaMemset3D class=op status=0 site=report_3d.cu:[0-9]+ dst=alloc#1 pitch=1536 ysize=3 value=0 width=1200 height=3 depth=5 
// test-report: ^call n=6 fn=cudaMemset3DAsync class=op status=1 site=report_3d.cu:[0-9]+ dst=alloc#1 pitch=1536 ysize=3 value=7 width=1200 height=3 depth=6 stream=stream#1 
// test-report: ^call n=9 fn=cudaMalloc3D class=alloc status=2 site=report_3d.cu:[0-9]+ width=1099511627776 height=1024 depth=1024 pitch=1099511627776 alloc=2 ptr=null 
// test-report: ^call n=10 fn=cudaMemcpy3D class=op status=1 site=report_3d.cu:[0-9]+ parms=null 
// test-report: ^fn-calls fn=cudaMalloc3D count=2$
// test-gpu: skip (needs the grader's shim linked in)
#include <string.h>
#include "check.h"

static float h[5][3][300], box[3][2][4];

int main(void)
{
    struct cudaExtent volume = make_cudaExtent(sizeof h[0][0], 3, 5);
    struct cudaPitchedPtr d;
    check("cudaMalloc3D returns 0", cudaMalloc3D(&d, volume), 0);
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(h, sizeof h[0][0], 300, 3);
    p.dstPtr = d;
    p.extent = volume;
    p.kind = cudaMemcpyHostToDevice;
    check("cudaMemcpy3D returns 0", cudaMemcpy3D(&p), 0);
    cudaStream_t s;
    cudaStreamCreate(&s);
    struct cudaMemcpy3DParms q;
    memset(&q, 0, sizeof q);
    q.srcPtr = d;
    q.srcPos = make_cudaPos(8, 1, 2);  // 2 x 1536 x 3 + 1536 + 8 = 10760 bytes in
    q.dstPtr = make_cudaPitchedPtr(box, sizeof box[0][0], 4, 2);
    q.extent = make_cudaExtent(16, 2, 3);
    q.kind = cudaMemcpyDeviceToHost;
    check("cudaMemcpy3DAsync returns 0", cudaMemcpy3DAsync(&q, s), 0);
    check("cudaMemset3D returns 0", cudaMemset3D(d, 0, volume), 0);
    check("cudaMemset3DAsync past the allocation returns 1", cudaMemset3DAsync(d, 7, make_cudaExtent(1200, 3, 6), s), 1);
    cudaGetLastError();
    cudaStreamDestroy(s);
    struct cudaPitchedPtr huge;
    check("cudaMalloc3D too large returns 2", cudaMalloc3D(&huge, make_cudaExtent((size_t)1 << 40, 1024, 1024)), 2);
    check("cudaMemcpy3D(NULL) returns 1", cudaMemcpy3D(NULL), 1);
    cudaGetLastError();
    cudaFree(d.ptr);
    return 0;
}
