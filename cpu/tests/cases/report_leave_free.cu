// the trace (grader/README.md): CUDAWB_LEAVE_FREE_MB=N fills the device before the program's first traced
// call, through the runtime and untraced, until at most N MiB (or less than 1 MiB more) are free: the
// grader's way to give a program a device-memory budget that cudaMemGetInfo and cudaMalloc both keep to.
// test-env: CUDAWB_LEAVE_FREE_MB=5
// test-report: ^call n=1 fn=cudaMemGetInfo class=op status=0 site=report_leave_free.cu:[0-9]+ free=[0-9]+ total=8589934592
// test-report: ^alloc-calls 3$
// test-report: ^peak 4194304$
// test-gpu: skip (needs the grader's shim linked in)
#include "check.h"

#define MIB ((size_t)1 << 20)

int main(void)
{
    size_t free_b = 0, total = 0, after = 0;
    void *a = NULL, *b = NULL;
    check("cudaMemGetInfo", cudaMemGetInfo(&free_b, &total), 0);
    check("at most 6 MiB free", free_b <= 6 * MIB, 1);
    check("at least 4 MiB free", free_b >= 4 * MIB, 1);
    check("4 MiB fit", cudaMalloc(&a, 4 * MIB), 0);
    check("4 MiB more do not", cudaMalloc(&b, 4 * MIB), 2);
    check("and the pointer is NULL", b == NULL, 1);
    check("cudaGetLastError reports it", cudaGetLastError(), 2);
    check("cudaMemGetInfo again", cudaMemGetInfo(&after, &total), 0);
    check("4 MiB less free", free_b - after >= 4 * MIB && free_b - after < 5 * MIB, 1);
    check("free", cudaFree(a), 0);
    check("1 MiB fits again", cudaMalloc(&b, MIB), 0);
    cudaFree(b);
    return 0;
}
