// the grader's CUDAWB_ interface (grader/README.md): CUDAWB_FAIL_ALLOC=N fails the N-th allocation call
// with 2 exactly like a real out-of-memory, and CUDAWB_REPORT lists every call and the leaks at exit.
// test-env: CUDAWB_FAIL_ALLOC=2
// test-report: ^cudawb-report 2$
// test-report: ^call n=1 fn=cudaMalloc class=alloc status=0 site=report_injection.cu:[0-9]+ bytes=400 alloc=1 ptr=alloc#1( printed=[0-9]+)?( nth=[0-9]+)? stack=
// test-report: ^call n=2 fn=cudaMallocManaged class=alloc status=2 site=report_injection.cu:[0-9]+ bytes=64 flags=1 alloc=2 ptr=null injected=1( printed=[0-9]+)?( nth=[0-9]+)? stack=
// test-report: ^call n=4 fn=cudaMallocHost class=alloc status=0 site=report_injection.cu:[0-9]+ bytes=32 alloc=3 ptr=pinned#3( printed=[0-9]+)?( nth=[0-9]+)? stack=
// test-report: ^call n=5 fn=cudaFree class=free status=1 site=report_injection.cu:[0-9]+ ptr=pinned#3 invalid=1( printed=[0-9]+)?( nth=[0-9]+)? stack=
// test-report: ^alloc-calls 4$
// test-report: ^invalid-frees 1$
// test-report: ^live-handles 0$
// test-report: ^live 1 400$
// test-report: ^leak fn=cudaMalloc bytes=400 ptr=alloc#1 site=report_injection.cu:[0-9]+$
// test-gpu: skip (needs the grader's shim linked in)
#include "check.h"

int main(void)
{
    int *d = NULL, *m = (int *)&m;
    char *pinned = NULL;
    check("the first allocation succeeds", cudaMalloc(&d, 400), 0);
    check("the second fails with 2", cudaMallocManaged(&m, 64), 2);
    check("... setting the pointer to NULL", m == NULL, 1);
    check("... and the last error", cudaGetLastError(), 2);
    check("the third succeeds", cudaMallocHost(&pinned, 32), 0);
    check("cudaFree of pinned memory is an invalid free", cudaFree(pinned), 1);
    cudaFreeHost(pinned);
    check("a zero-size call is counted and creates nothing", cudaMalloc(&m, 0), 0);
    return 0;  /* d is left live: the report lists it as a leak */
}
