// fact: Thrust out of device memory: a device_vector larger than the device throws std::bad_alloc (Thrust's
// bad_alloc, whose what() names the CUDA error), leaves no CUDA error pending and nothing allocated; a vector
// that was allocated before it is freed when its scope ends, and Thrust goes on working afterwards.
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <new>
#include "check.h"

int main(void)
{
    size_t free_before = 0, free_after = 0, total = 0;
    // The H200 loads a kernel's code into device memory at its first launch (lazily): the fill kernel runs
    // once before the free memory is read, or that load would look like a leak (it did, measured).
    { thrust::device_vector<int> warm(16, 1); }
    cudaMemGetInfo(&free_before, &total);
    int caught = 0;
    try {
        thrust::device_vector<int> first(1 << 20, 1);
        thrust::device_vector<char> huge((size_t)1 << 50);
        printf("not reached: %d elements\n", (int)huge.size());
    } catch (std::bad_alloc &e) {
        caught = 1;
        printf("what(): %s\n", e.what());
    }
    check("a device_vector of 1 PiB throws std::bad_alloc", caught, 1);
    check("no CUDA error is left pending", cudaGetLastError(), cudaSuccess);
    cudaMemGetInfo(&free_after, &total);
    check("the device's free memory is as before (nothing leaked)", free_after == free_before, 1);
    thrust::device_vector<int> ones(1000, 1);
    check("Thrust works afterwards", thrust::reduce(ones.begin(), ones.end()), 1000);
    return 0;
}
