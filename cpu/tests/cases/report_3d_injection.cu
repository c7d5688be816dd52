// the trace (grader/README.md): CUDAWB_FAIL_ALLOC=N fails a cudaMalloc3D with 2 and a NULL pointer like a
// real out-of-memory; its record has no pitch= (the real call never ran, so the pitch is the program's own),
// and the next one is recorded with its pitch and its allocation of pitch x height x depth bytes.
// test-env: CUDAWB_FAIL_ALLOC=1
// test-report: ^call n=1 fn=cudaMalloc3D class=alloc status=2 site=report_3d_injection.cu:[0-9]+ width=100 height=4 depth=2 alloc=1 ptr=null injected=1( printed=[0-9]+)?( nth=[0-9]+)? stack=
// test-report: ^call n=3 fn=cudaMalloc3D class=alloc status=0 site=report_3d_injection.cu:[0-9]+ width=100 height=4 depth=2 pitch=512 alloc=2 ptr=alloc#2( printed=[0-9]+)?( nth=[0-9]+)? stack=
// test-report: ^leak fn=cudaMalloc3D bytes=4096 ptr=alloc#2 site=report_3d_injection.cu:[0-9]+$
// test-gpu: skip (needs the grader's shim linked in)
#include "check.h"

int main(void)
{
    struct cudaPitchedPtr p;
    p.ptr = &p;
    p.pitch = 12345;
    check("the failed cudaMalloc3D returns 2", cudaMalloc3D(&p, make_cudaExtent(100, 4, 2)), 2);
    check("... with the pointer NULL", p.ptr == NULL, 1);
    check("cudaGetLastError returns 2", cudaGetLastError(), 2);
    check("the next cudaMalloc3D returns 0", cudaMalloc3D(&p, make_cudaExtent(100, 4, 2)), 0);
    return 0;  // p.ptr is left live: the report's leak line
}
