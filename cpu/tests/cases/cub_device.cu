// fact: CUB's device-wide reductions and scans with CUB's two-phase protocol: a first call with no temporary
// storage sets temp_storage_bytes (some bytes) and does nothing else; the second, given that much device
// memory, queues the work on the stream and returns 0; the result is there after the stream is synchronized.
// DeviceReduce::Sum, Max, Min, Reduce (an operator and an initial value; no items: the initial value, and
// Max's lowest int), DeviceScan::InclusiveSum, ExclusiveSum (in place too), InclusiveScan, ExclusiveScan,
// checked against host loops. Storage smaller than asked for is 1 (cudaErrorInvalidValue), as in CUB.
#include <cub/cub.cuh>
#include <limits.h>
#include "check.h"

struct Max {
    __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

static int value(int i) { return (i * 7919 + 13) % 2001 - 1000; }

int main(void)
{
    const int n = 100000;
    int *h = (int *)malloc(n * sizeof(int)), *back = (int *)malloc(n * sizeof(int));
    long long sum = 0;
    int mx = INT_MIN, mn = INT_MAX;
    for (int i = 0; i < n; i++) {
        h[i] = value(i);
        sum += h[i];
        mx = h[i] > mx ? h[i] : mx;
        mn = h[i] < mn ? h[i] : mn;
    }
    int *in, *out, *res;
    long long *sum_out;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMalloc(&res, 4 * sizeof(int));
    cudaMalloc(&sum_out, sizeof(long long));
    cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaStream_t s;
    cudaStreamCreate(&s);

    void *temp = NULL;
    size_t bytes = 0;
    check("DeviceReduce::Sum without storage returns 0", cub::DeviceReduce::Sum(temp, bytes, in, sum_out, n, s), 0);
    check("... and sets temp_storage_bytes", bytes > 0, 1);
    cudaMalloc(&temp, bytes);
    check("DeviceReduce::Sum with it returns 0", cub::DeviceReduce::Sum(temp, bytes, in, sum_out, n, s), 0);
    cub::DeviceReduce::Max(temp, bytes, in, res, n, s);
    cub::DeviceReduce::Min(temp, bytes, in, res + 1, n, s);
    cub::DeviceReduce::Reduce(temp, bytes, in, res + 2, n, Max(), 5000, s);
    cub::DeviceReduce::Max(temp, bytes, in, res + 3, 0, s);
    check("cudaStreamSynchronize returns 0", cudaStreamSynchronize(s), 0);
    long long got_sum;
    int got[4];
    cudaMemcpy(&got_sum, sum_out, sizeof got_sum, cudaMemcpyDeviceToHost);
    cudaMemcpy(got, res, sizeof got, cudaMemcpyDeviceToHost);
    check("DeviceReduce::Sum into a long long", got_sum, sum);
    check("DeviceReduce::Max", got[0], mx);
    check("DeviceReduce::Min", got[1], mn);
    check("DeviceReduce::Reduce(Max) from 5000", got[2], 5000);
    check("DeviceReduce::Max of no items: the lowest int", got[3], INT_MIN);

    size_t scan_bytes = 0;
    void *scan_temp = NULL;
    check("DeviceScan::InclusiveSum without storage returns 0",
          cub::DeviceScan::InclusiveSum(scan_temp, scan_bytes, in, out, n, s), 0);
    cudaMalloc(&scan_temp, scan_bytes);
    cub::DeviceScan::InclusiveSum(scan_temp, scan_bytes, in, out, n, s);
    cudaStreamSynchronize(s);
    cudaMemcpy(back, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0, run = 0;
    for (int i = 0; i < n; i++) wrong += back[i] != (run += h[i]);
    check("DeviceScan::InclusiveSum", wrong, 0);

    cub::DeviceScan::ExclusiveSum(scan_temp, scan_bytes, in, out, n, s);
    cudaStreamSynchronize(s);
    cudaMemcpy(back, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    wrong = run = 0;
    for (int i = 0; i < n; i++) wrong += back[i] != run, run += h[i];
    check("DeviceScan::ExclusiveSum", wrong, 0);

    cub::DeviceScan::InclusiveScan(scan_temp, scan_bytes, in, out, Max(), n, s);
    cudaStreamSynchronize(s);
    cudaMemcpy(back, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    int best = INT_MIN;
    wrong = 0;
    for (int i = 0; i < n; i++) wrong += back[i] != (best = h[i] > best ? h[i] : best);
    check("DeviceScan::InclusiveScan(Max)", wrong, 0);

    cub::DeviceScan::ExclusiveScan(scan_temp, scan_bytes, in, out, Max(), -5000, n, s);
    cudaStreamSynchronize(s);
    cudaMemcpy(back, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    best = -5000;
    wrong = 0;
    for (int i = 0; i < n; i++) wrong += back[i] != best, best = h[i] > best ? h[i] : best;
    check("DeviceScan::ExclusiveScan(Max) from -5000", wrong, 0);

    cub::DeviceScan::ExclusiveSum(scan_temp, scan_bytes, in, n, s);  // in place
    cudaStreamSynchronize(s);
    cudaMemcpy(back, in, n * sizeof(int), cudaMemcpyDeviceToHost);
    wrong = run = 0;
    for (int i = 0; i < n; i++) wrong += back[i] != run, run += h[i];
    check("DeviceScan::ExclusiveSum in place", wrong, 0);

    size_t too_few = 0;
    check("DeviceReduce::Sum with too little storage returns 1",
          cub::DeviceReduce::Sum(temp, too_few, in, sum_out, n, s), 1);
    cudaGetLastError();

    cudaStreamDestroy(s);
    cudaFree(temp);
    cudaFree(scan_temp);
    cudaFree(in);
    cudaFree(out);
    cudaFree(res);
    cudaFree(sum_out);
    free(h);
    free(back);
    return 0;
}
