// the trace (grader/README.md): CUDAWB_FAIL_NTH=N fails the N-th call that can be failed (an allocation,
// creation, operation or synchronizing call), whatever number of queries came before it: a polling loop as
// long as the clock says does not move it, as it moves CUDAWB_FAIL_CALL's count of every call.
// test-env: CUDAWB_FAIL_NTH=3
// test-report: ^call n=[0-9]+ fn=cudaStreamCreate class=create status=0 .* nth=1( |$)
// test-report: ^call n=[0-9]+ fn=cudaMalloc class=alloc status=2 site=report_fail_nth.cu:[0-9]+ bytes=64 .* injected=1 .*nth=3( |$)
// test-gpu: skip (needs the grader's shim linked in)
#include <stdio.h>
#include <time.h>
#include "check.h"

int main(void)
{
    cudaStream_t s;
    float *a = NULL, *b = NULL;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int polls = 1 + (int)(now.tv_nsec % 64);
    check("the stream is created (the first call that can fail)", cudaStreamCreate(&s), 0);
    check("the first allocation (the second)", cudaMalloc(&a, 64), 0);
    for (int i = 0; i < polls; i++)
        cudaStreamQuery(s);
    check("the error state reads 0", cudaGetLastError(), 0);
    check("after 1 to 64 queries, the third, an allocation, fails with 2", cudaMalloc(&b, 64), 2);
    check("... and leaves its pointer NULL", b == NULL, 1);
    cudaFree(a);
    cudaStreamDestroy(s);
    return 0;
}
