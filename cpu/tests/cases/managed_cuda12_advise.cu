// compile time: CUDA 12's cudaMemAdvise(p, bytes, advice, device) does not compile with nvcc 13 (a device
// number is no cudaMemLocation), so it must not compile here either: older course code breaks here.
// test-compile-fails: managed_cuda12_advise\.cu(:|\()10(:[0-9]+:|\):) error: .*int.*cudaMemLocation
#include "check.h"

int main(void)
{
    float *m = NULL;
    cudaMallocManaged(&m, 1024 * sizeof(float));
    cudaMemAdvise(m, 1024 * sizeof(float), cudaMemAdviseSetPreferredLocation, 0);
    cudaFree(m);
    return 0;
}
