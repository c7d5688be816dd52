// fact: CUB's block and warp collectives as teaching code uses them, checked against host loops:
// BlockReduce (Sum, Reduce with an operator, the valid-items forms, several items per thread, a 2-D block),
// BlockScan (inclusive and exclusive sums with the block's aggregate, an exclusive scan with an initial value
// and an operator, several items per thread), WarpReduce (Sum, Reduce, valid items, logical warps of 16 lanes,
// a block whose last warp is partial) and WarpScan. Only thread 0's (lane 0's) reduction is read, as CUB
// defines only that one.
#include <cub/cub.cuh>
#include "check.h"

#define THREADS 128

struct Max {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

__device__ int value(int i) { return (i * 37 + 11) % 101 - 50; }

// per block: [0] Sum, [1] Reduce(Max), [2] Sum of the first 100 threads, [3] Sum of 4 items per thread
__global__ void block_reduce(int *out)
{
    typedef cub::BlockReduce<int, THREADS> BR;
    __shared__ typename BR::TempStorage tmp;
    int i = blockIdx.x * THREADS + threadIdx.x;
    int r0 = BR(tmp).Sum(value(i));
    __syncthreads();
    int r1 = BR(tmp).Reduce(value(i), Max());
    __syncthreads();
    int r2 = BR(tmp).Sum(value(i), 100);
    __syncthreads();
    int items[4];
    for (int k = 0; k < 4; k++) items[k] = value(4 * i + k);
    int r3 = BR(tmp).Sum(items);
    if (threadIdx.x == 0) {
        out[4 * blockIdx.x] = r0;
        out[4 * blockIdx.x + 1] = r1;
        out[4 * blockIdx.x + 2] = r2;
        out[4 * blockIdx.x + 3] = r3;
    }
}

// a 16 x 8 block, threads numbered x first: the sum of value(linear index)
__global__ void block_reduce_2d(int *out)
{
    typedef cub::BlockReduce<int, 16, cub::BLOCK_REDUCE_WARP_REDUCTIONS, 8> BR;
    __shared__ typename BR::TempStorage tmp;
    int r = BR(tmp).Sum(value(threadIdx.y * 16 + threadIdx.x));
    if (threadIdx.x == 0 && threadIdx.y == 0) *out = r;
}

// per thread: inclusive sum, exclusive sum, exclusive max-scan from -1000; per block: the aggregate
__global__ void block_scan(int *inc, int *exc, int *mx, int *agg, int *items_out)
{
    typedef cub::BlockScan<int, THREADS> BS;
    __shared__ typename BS::TempStorage tmp;
    int i = blockIdx.x * THREADS + threadIdx.x;
    int a, b, c, total;
    BS(tmp).InclusiveSum(value(i), a);
    __syncthreads();
    BS(tmp).ExclusiveSum(value(i), b, total);
    __syncthreads();
    BS(tmp).ExclusiveScan(value(i), c, -1000, Max());
    __syncthreads();
    int items[3];
    for (int k = 0; k < 3; k++) items[k] = value(3 * i + k);
    BS(tmp).ExclusiveSum(items, items);
    inc[i] = a;
    exc[i] = b;
    mx[i] = c;
    for (int k = 0; k < 3; k++) items_out[3 * i + k] = items[k];
    if (threadIdx.x == 0) agg[blockIdx.x] = total;
}

// 80 threads: warps of 32, 32 and 16 lanes. Per warp: Sum, Reduce(Max), Sum of the first 10 lanes; per
// logical warp of 16 lanes: Sum. WarpScan: every thread's inclusive and exclusive sums within its warp.
__global__ void warps(int *sums, int *maxes, int *first10, int *half_sums, int *inc, int *exc)
{
    typedef cub::WarpReduce<int> WR;
    typedef cub::WarpReduce<int, 16> WR16;
    typedef cub::WarpScan<int> WS;
    __shared__ typename WR::TempStorage tmp[3];
    __shared__ typename WR16::TempStorage tmp16[5];
    __shared__ typename WS::TempStorage scan_tmp[3];
    int t = threadIdx.x, w = t / 32, lane = t % 32;
    unsigned mask = w < 2 ? 0xffffffffu : 0xffffu;  // the lanes of the thread's warp (the last has 16)
    int s = WR(tmp[w]).Sum(value(t));
    __syncwarp(mask);  // before the TempStorage is reused, as CUB requires
    int m = WR(tmp[w]).Reduce(value(t), Max());
    __syncwarp(mask);
    int f = WR(tmp[w]).Sum(value(t), 10);
    int h = WR16(tmp16[t / 16]).Sum(value(t));
    int a, b;
    WS(scan_tmp[w]).InclusiveSum(value(t), a);
    __syncwarp(mask);
    WS(scan_tmp[w]).ExclusiveSum(value(t), b);
    if (lane == 0) {
        sums[w] = s;
        maxes[w] = m;
        first10[w] = f;
    }
    if (t % 16 == 0) half_sums[t / 16] = h;
    inc[t] = a;
    exc[t] = b;
}

static int value_host(int i) { return (i * 37 + 11) % 101 - 50; }

int main(void)
{
    const int blocks = 3, n = blocks * THREADS;
    int *d, h[4 * n];
    cudaMalloc(&d, 16 * n * sizeof(int));

    block_reduce<<<blocks, THREADS>>>(d);
    check("BlockReduce kernel: cudaDeviceSynchronize returns 0", cudaDeviceSynchronize(), 0);
    cudaMemcpy(h, d, 4 * blocks * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int b = 0; b < blocks; b++) {
        int sum = 0, mx = -1000, first = 0, four = 0;
        for (int t = 0; t < THREADS; t++) {
            int i = b * THREADS + t, v = value_host(i);
            sum += v;
            mx = v > mx ? v : mx;
            if (t < 100) first += v;
            for (int k = 0; k < 4; k++) four += value_host(4 * i + k);
        }
        wrong += (h[4 * b] != sum) + (h[4 * b + 1] != mx) + (h[4 * b + 2] != first) + (h[4 * b + 3] != four);
    }
    check("BlockReduce Sum, Reduce(Max), Sum(x, 100), Sum(4 items): the values the host computes", wrong, 0);

    block_reduce_2d<<<1, dim3(16, 8)>>>(d);
    cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost);
    int sum = 0;
    for (int i = 0; i < 128; i++) sum += value_host(i);
    check("BlockReduce over a 16 x 8 block", h[0], sum);

    int *inc = d, *exc = d + n, *mx = d + 2 * n, *agg = d + 3 * n, *items = d + 4 * n;
    block_scan<<<blocks, THREADS>>>(inc, exc, mx, agg, items);
    check("BlockScan kernel: cudaDeviceSynchronize returns 0", cudaDeviceSynchronize(), 0);
    int hi[n], he[n], hm[n], ha[blocks], hit[3 * n];
    cudaMemcpy(hi, inc, sizeof hi, cudaMemcpyDeviceToHost);
    cudaMemcpy(he, exc, sizeof he, cudaMemcpyDeviceToHost);
    cudaMemcpy(hm, mx, sizeof hm, cudaMemcpyDeviceToHost);
    cudaMemcpy(ha, agg, sizeof ha, cudaMemcpyDeviceToHost);
    cudaMemcpy(hit, items, sizeof hit, cudaMemcpyDeviceToHost);
    int wrong_inc = 0, wrong_exc = 0, wrong_max = 0, wrong_agg = 0, wrong_items = 0;
    for (int b = 0; b < blocks; b++) {
        int run = 0, best = -1000, run3 = 0;
        for (int t = 0; t < THREADS; t++) {
            int i = b * THREADS + t, v = value_host(i);
            wrong_exc += he[i] != run;
            wrong_max += hm[i] != best;
            run += v;
            best = v > best ? v : best;
            wrong_inc += hi[i] != run;
            for (int k = 0; k < 3; k++) {
                wrong_items += hit[3 * i + k] != run3;
                run3 += value_host(3 * i + k);
            }
        }
        wrong_agg += ha[b] != run;
    }
    check("BlockScan InclusiveSum", wrong_inc, 0);
    check("BlockScan ExclusiveSum", wrong_exc, 0);
    check("BlockScan ExclusiveSum's block aggregate", wrong_agg, 0);
    check("BlockScan ExclusiveScan from -1000 with Max", wrong_max, 0);
    check("BlockScan ExclusiveSum of 3 items per thread, in place", wrong_items, 0);

    int *sums = d, *maxes = d + 3, *first10 = d + 6, *halves = d + 9, *winc = d + 20, *wexc = d + 100;
    warps<<<1, 80>>>(sums, maxes, first10, halves, winc, wexc);
    check("warp kernel: cudaDeviceSynchronize returns 0", cudaDeviceSynchronize(), 0);
    cudaMemcpy(h, d, 180 * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong_warp = 0, wrong_half = 0, wrong_scan = 0;
    for (int w = 0; w < 3; w++) {
        int s = 0, m = -1000, f = 0, lanes = w < 2 ? 32 : 16;
        for (int l = 0; l < lanes; l++) {
            int v = value_host(32 * w + l);
            wrong_scan += h[100 + 32 * w + l] != s;
            s += v;
            wrong_scan += h[20 + 32 * w + l] != s;
            m = v > m ? v : m;
            if (l < 10) f += v;
        }
        wrong_warp += (h[w] != s) + (h[3 + w] != m) + (h[6 + w] != f);
    }
    for (int q = 0; q < 5; q++) {
        int s = 0;
        for (int l = 0; l < 16; l++) s += value_host(16 * q + l);
        wrong_half += h[9 + q] != s;
    }
    check("WarpReduce Sum, Reduce(Max), Sum(x, 10), the last warp partial", wrong_warp, 0);
    check("WarpReduce over logical warps of 16 lanes", wrong_half, 0);
    check("WarpScan InclusiveSum and ExclusiveSum", wrong_scan, 0);
    cudaFree(d);
    return 0;
}
