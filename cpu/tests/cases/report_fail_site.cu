// the trace (grader/README.md): CUDAWB_FAIL_SITE=FILE:LINE#K fails the K-th call made at that line, of any
// kind, and no other: here the second of three memsets in a loop.
// test-env: CUDAWB_FAIL_SITE=report_fail_site.cu:14#2
// test-report: ^call n=3 fn=cudaMemset class=op status=1 site=report_fail_site.cu:14 dst=alloc#1 value=0 bytes=4 injected=1
// test-gpu: skip (needs the grader's shim linked in)
#include "check.h"

int main(void)
{
    int *d = NULL;
    cudaError_t seen[3];
    check("the allocation succeeds", cudaMalloc(&d, 4), 0);
    for (int i = 0; i < 3; i++)
        seen[i] = cudaMemset(d, 0, 4);
    check("the first memset at the line succeeds", seen[0], 0);
    check("the second fails with 1", seen[1], 1);
    check("the third succeeds", seen[2], 0);
    cudaFree(d);
    return 0;
}
