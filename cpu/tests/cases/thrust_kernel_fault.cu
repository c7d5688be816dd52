// fact: Thrust when device code faults: a functor reading through a null pointer makes the algorithm throw
// thrust::system_error with cudaErrorIllegalAddress (700), and the error is sticky afterwards.
#include <thrust/device_ptr.h>
#include <thrust/fill.h>
#include <thrust/system_error.h>
#include <thrust/transform.h>
#include "check.h"

struct through {
    const int *p;
    __host__ __device__ int operator()(int i) const { return p[i]; }
};

int main(int argc, char **argv)
{
    (void)argv;
    const int *nowhere = argc > 5 ? (const int *)argv : NULL;  // NULL, but not known to the compiler
    int *d = NULL;
    cudaMalloc(&d, 256 * sizeof(int));
    thrust::device_ptr<int> v(d);
    thrust::fill(v, v + 256, 1);
    int code = 0;
    try {
        thrust::transform(v, v + 256, v, through{nowhere});
        cudaDeviceSynchronize();
    } catch (thrust::system_error &e) {
        code = e.code().value();
    }
    check("the algorithm throws thrust::system_error with 700", code, cudaErrorIllegalAddress);
    check("the error is sticky: cudaDeviceSynchronize returns 700", cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    cudaFree(d);
    return 0;
}
