// fact: the trace of a Thrust program (grader/README.md) records what it did with CUDA, as CCCL 3's Thrust does
// it: device_vector's storage is a cudaMalloc, a copy between host and device (host_vector <-> device_vector,
// d[i] read by host code) a cudaMemcpyAsync on the legacy stream and a cudaStreamSynchronize (between two
// device_vectors a DeviceToDevice one), an algorithm a
// kernel launch (named for it) followed by a cudaStreamSynchronize and a cudaGetLastError (clearing the error
// state), and the destructor's cudaFree leaves nothing live.
// test-report: ^call n=1 fn=cudaMalloc class=alloc status=0 site=[^ ]+ bytes=4000 alloc=1 ptr=alloc#1
// test-report: ^call n=2 fn=cudaMemcpyAsync class=op status=0 site=[^ ]+ dst=alloc#1 src=host bytes=4000 kind=Default stream=legacy
// test-report: ^call n=3 fn=cudaStreamSynchronize class=sync status=0 site=[^ ]+ stream=legacy
// test-report: ^call n=4 fn=cudaLaunchKernel class=op status=0 site=[^ ]+ kernel=reduce grid=1x1x1 block=1x1x1 .* stream=legacy
// test-report: ^call n=5 fn=cudaStreamSynchronize class=sync status=0 site=[^ ]+ stream=legacy
// test-report: ^call n=6 fn=cudaGetLastError class=error status=0
// test-report: ^call n=7 fn=cudaMemcpyAsync class=op status=0 site=[^ ]+ dst=host src=alloc#1\+8 bytes=4 kind=Default stream=legacy
// test-report: ^call n=9 fn=cudaMemcpyAsync class=op status=0 site=[^ ]+ dst=host src=alloc#1 bytes=4000 kind=Default stream=legacy
// test-report: ^call n=12 fn=cudaMemcpyAsync class=op status=0 site=[^ ]+ dst=alloc#2 src=alloc#1 bytes=4000 kind=DeviceToDevice stream=legacy
// test-report: ^call n=[0-9]+ fn=cudaFree class=free status=0 site=[^ ]+ ptr=alloc#1
// test-report: ^live 0 0$
// test-gpu: skip (needs the grader's shim linked in; CUDA's Thrust launches more kernels and makes other calls)
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include "check.h"

int main(void)
{
    thrust::host_vector<int> h(1000, 2);
    long long sum = 0;
    {
        thrust::device_vector<int> d = h;
        sum = thrust::reduce(d.begin(), d.end(), 0LL);
        check("d[2]", d[2], 2);
        h = d;
        thrust::device_vector<int> e = d;
        check("e[999], copied on the device", e[999], 2);
    }
    check("the sum", sum, 2000);
    return 0;
}
