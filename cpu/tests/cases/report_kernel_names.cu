// the trace: a launch record names the kernel by its identifier alone, whatever its parameters' types
// (a struct such as cudaPitchedPtr among them), its linkage (static), its namespace or its template
// arguments: graders look kernels up by that name on both backends. On a GPU the name comes from the
// mangled symbol (grader/shim/kernel_info.c), on the CPU backend from the source.
// test-report: ^call n=[0-9]+ fn=cudaLaunchKernel class=op status=0 site=[^ ]+ kernel=add_slice_number grid=
// test-report: ^call n=[0-9]+ fn=cudaLaunchKernel class=op status=0 site=[^ ]+ kernel=fill_static grid=
// test-report: ^call n=[0-9]+ fn=cudaLaunchKernel class=op status=0 site=[^ ]+ kernel=step grid=
// test-report: ^call n=[0-9]+ fn=cudaLaunchKernel class=op status=0 site=[^ ]+ kernel=scale grid=
// test-shim: linked (gpu-compare.sh links the grader's trace in, as grader/lib/build.sh does)
#include "check.h"

__global__ void add_slice_number(cudaPitchedPtr p, int w, int h, int d)
{
    (void)p, (void)w, (void)h, (void)d;
}

static __global__ void fill_static(float *p)
{
    p[threadIdx.x] = 1.0f;
}

namespace lesson {
__global__ void step(float *p, size_t n)
{
    if (threadIdx.x < n)
        p[threadIdx.x] += 1.0f;
}
} // namespace lesson

template <typename T> __global__ void scale(T *p, T by)
{
    p[threadIdx.x] *= by;
}

int main(void)
{
    float *d = NULL;
    cudaPitchedPtr pp = make_cudaPitchedPtr(NULL, 0, 0, 0);
    check("cudaMalloc", cudaMalloc((void **)&d, 32 * sizeof(float)), 0);
    add_slice_number<<<1, 1>>>(pp, 1, 1, 1);
    fill_static<<<1, 32>>>(d);
    lesson::step<<<1, 32>>>(d, 32);
    scale<float><<<1, 32>>>(d, 2.0f);
    check("the launches", cudaGetLastError(), 0);
    check("cudaDeviceSynchronize", cudaDeviceSynchronize(), 0);
    check("cudaFree", cudaFree(d), 0);
    return 0;
}
