// fact: Thrust containers: device_vector's storage is device memory (cudaMalloc), host_vector's host memory;
// construction, assignment and thrust::copy move data between them (with a type conversion too), v[i] reads
// and writes single elements from host code, resize keeps the old elements and fills the new ones.
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <vector>
#include "check.h"

int main(void)
{
    const int n = 1000;
    thrust::host_vector<int> h(n);
    for (int i = 0; i < n; i++) h[i] = i * 3 + 1;

    thrust::device_vector<int> d = h;
    cudaPointerAttributes attr;
    check("device_vector's storage is device memory",
          cudaPointerGetAttributes(&attr, thrust::raw_pointer_cast(d.data())) == cudaSuccess &&
              attr.type == cudaMemoryTypeDevice, 1);
    check("host_vector's storage is memory CUDA does not know",
          cudaPointerGetAttributes(&attr, thrust::raw_pointer_cast(h.data())) == cudaSuccess &&
              attr.type == cudaMemoryTypeUnregistered, 1);
    check("d.size() after the copy from the host", (long long)d.size(), n);
    check("d[7], read from host code", d[7], 22);
    d[7] = -5;
    check("d[7] after host code assigned -5", d[7], -5);

    thrust::host_vector<int> back = d;
    int wrong = 0;
    for (int i = 0; i < n; i++) wrong += back[i] != (i == 7 ? -5 : i * 3 + 1);
    check("host_vector = device_vector copies every element back", wrong, 0);

    d.resize(2 * n, 9);
    check("resize keeps the old elements", d[n - 1], (n - 1) * 3 + 1);
    check("resize fills the new ones", d[n + 3], 9);
    check("the new size", (long long)d.size(), 2 * n);

    std::vector<int> s(n);
    thrust::copy(d.begin(), d.begin() + n, s.begin());
    long long sum = 0, want = 0;
    for (int i = 0; i < n; i++) sum += s[i], want += i == 7 ? -5 : i * 3 + 1;
    check("thrust::copy from a device_vector into a std::vector", sum, want);

    thrust::device_vector<int> part(h.begin() + 10, h.begin() + 20);
    check("device_vector built from a host range", part[9], 19 * 3 + 1);

    thrust::device_vector<double> converted = h;
    check("device_vector<double> from host_vector<int> converts", (long long)(converted[5] * 2), 32);
    thrust::host_vector<float> halves(converted.begin(), converted.begin() + 4);
    check("host_vector<float> from device_vector<double> converts", (long long)(halves[3] * 2), 20);

    thrust::device_vector<int> fives(5, 42);
    thrust::host_vector<int> fh = fives;
    check("device_vector(5, 42) holds 42 five times", fh[0] + fh[1] + fh[2] + fh[3] + fh[4], 5 * 42);

    d.clear();
    check("clear empties it", (long long)d.size(), 0);
    d.push_back(77);
    check("push_back after clear", d[0], 77);
    return 0;
}
