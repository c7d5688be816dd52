// compile time: thrust::async (futures and events) is refused with the backend's own message.
// test-compile-fails: thrust::async, thrust::future and thrust::event are not emulated by the CPU backend
// test-gpu: skip (nvcc compiles thrust::async)
#include <thrust/async/reduce.h>
#include <thrust/device_vector.h>

int main(void)
{
    thrust::device_vector<int> v(10, 1);
    auto f = thrust::async::reduce(v.begin(), v.end());
    return f.get() == 10 ? 0 : 1;
}
