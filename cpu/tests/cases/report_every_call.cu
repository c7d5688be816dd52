// the trace (grader/README.md): CUDAWB_FAIL_CALL=N fails the N-th call of any kind through the runtime (a
// copy with 1, and cudaGetLastError then reports it), a synchronize with a sticky 700; and the program sees
// none of the CUDAWB_ variables, neither with getenv nor in /proc/self/environ.
// test-env: CUDAWB_FAIL_CALL=2
// test-report: ^call n=2 fn=cudaMemcpy class=op status=1 site=report_every_call.cu:[0-9]+ dst=alloc#1 src=host bytes=16 kind=HostToDevice injected=1
// test-report: ^call n=4 fn=cudaLaunchKernel class=op status=0 site=report_every_call.cu:[0-9]+ kernel=twice grid=1x1x1 block=4x1x1 shmem=0 args=alloc#1,4 stream=0
// test-report: ^call n=6 fn=cudaMemcpy class=op status=0 site=report_every_call.cu:[0-9]+ dst=host src=alloc#1\+4 bytes=4 kind=DeviceToHost
// test-report: ^again count=2 last=8( gap=[0-9]+)?$
// test-gpu: skip (needs the grader's shim linked in)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

__global__ void twice(int *d, int n)
{
    if ((int)threadIdx.x < n)
        d[threadIdx.x] *= 2;
}

// 1 when the environment block the kernel gave the process still holds a CUDAWB_ variable.
static int environ_mentions_cudawb(void)
{
    char buf[65536];
    FILE *f = fopen("/proc/self/environ", "rb");
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    for (size_t i = 0; i + 7 <= n; i++)
        if (memcmp(buf + i, "CUDAWB_", 7) == 0)
            return 1;
    return 0;
}

int main(void)
{
    int *d = NULL, h[4] = {1, 2, 3, 4}, out = 0;
    check("getenv does not see CUDAWB_REPORT", getenv("CUDAWB_REPORT") == NULL, 1);
    check("nor CUDAWB_FAIL_CALL", getenv("CUDAWB_FAIL_CALL") == NULL, 1);
    check("/proc/self/environ holds no CUDAWB_ variable", environ_mentions_cudawb(), 0);
    check("the allocation succeeds", cudaMalloc(&d, sizeof h), 0);
    check("the second call, a copy, fails with 1", cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice), 1);
    check("... and cudaGetLastError reports it", cudaGetLastError(), 1);
    twice<<<1, 4>>>(d, 4);
    check("the launch is recorded", cudaGetLastError(), 0);
    for (int i = 0; i < 3; i++)
        check("the same copy three times is one record and a count", cudaMemcpy(&out, d + 1, sizeof out, cudaMemcpyDeviceToHost), 0);
    cudaFree(d);
    return 0;
}
