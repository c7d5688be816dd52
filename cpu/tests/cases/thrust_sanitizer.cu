// fact: compute-sanitizer memcheck on a correct Thrust program (device_vector, copies both ways, sort, reduce,
// transform with a functor reading device memory, device_ptr over cudaMalloc'ed memory, single elements
// read and written from the host) reports "ERROR SUMMARY: 0 errors", no leak among them.
// test-sanitizer: --tool memcheck --leak-check full --error-exitcode 9
// test-stderr: ERROR SUMMARY: 0 errors
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include "check.h"

struct plus_table {
    const int *table;
    __host__ __device__ int operator()(int x) const { return x + table[x % 10]; }
};

int main(void)
{
    const int n = 1000;
    thrust::host_vector<int> h(n);
    for (int i = 0; i < n; i++) h[i] = (i * 37) % n;
    thrust::device_vector<int> d = h;
    thrust::sort(d.begin(), d.end());
    check("sort, then d[n - 1]", d[n - 1], n - 1);
    d[0] = 5;
    int *table = NULL;
    cudaMalloc(&table, 10 * sizeof(int));
    thrust::device_ptr<int> t = thrust::device_pointer_cast(table);
    thrust::copy(d.begin(), d.begin() + 10, t);
    thrust::transform(d.begin(), d.end(), d.begin(), plus_table{table});
    long long want = 0;
    for (int i = 0; i < n; i++) {
        int v = i == 0 ? 5 : i, tv = v % 10 == 0 ? 5 : v % 10;  // table = 5, 1, 2, ..., 9
        want += v + tv;
    }
    check("reduce after a transform reading a cudaMalloc'ed table", thrust::reduce(d.begin(), d.end(), 0LL), want);
    thrust::host_vector<int> back = d;
    check("the copy back", back[1], 2);
    cudaFree(table);
    return 0;
}
