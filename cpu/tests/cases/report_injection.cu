// the grader's CUDAWB_ interface (grader/README.md): CUDAWB_FAIL_ALLOC=N fails the N-th allocation call
// with 2 exactly like a real out-of-memory, and CUDAWB_REPORT lists calls, frees and leaks at exit.
// test-env: CUDAWB_FAIL_ALLOC=2
// test-report: ^cudawb-report 1$
// test-report: ^call n=1 fn=cudaMalloc bytes=400 status=0 ptr=0x[0-9a-f]+ site=report_injection.cu:[0-9]+$
// test-report: ^call n=2 fn=cudaMallocManaged bytes=64 status=2 ptr=0x0 site=report_injection.cu:[0-9]+ injected=1$
// test-report: ^call n=3 fn=cudaMallocHost bytes=32 status=0 ptr=0x[0-9a-f]+ site=report_injection.cu:[0-9]+$
// test-report: ^free fn=cudaFree ptr=0x[0-9a-f]+ status=1 site=report_injection.cu:[0-9]+ invalid=1$
// test-report: ^alloc-calls 4$
// test-report: ^invalid-frees 1$
// test-report: ^live-handles 0$
// test-report: ^live 1 400$
// test-report: ^leak fn=cudaMalloc bytes=400 ptr=0x[0-9a-f]+ site=report_injection.cu:[0-9]+$
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
