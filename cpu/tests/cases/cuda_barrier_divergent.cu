// kernel feature: cuda::barrier<thread_scope_block> (<cuda/barrier>) with threads that diverge: init by one
// thread, arrive and arrive_and_wait reached from different branches, a token held across other work, an
// arrival of 2, arrive_and_drop, a completion function run once per phase, and cuda::memcpy_async completed
// by the phase; expected values from CUDA's documentation of the barrier's phases.
#include "check.h"
#include <cuda/barrier>
#include <utility>

#define THREADS 64

struct count_phases { /* the completion function: runs once per phase, before any waiting thread goes on */
    int *phases;
    __device__ void operator()() { (*phases)++; }
};

__global__ void phases(int *out, const int *src, int *phase_count)
{
    __shared__ cuda::barrier<cuda::thread_scope_block, count_phases> bar;
    __shared__ int seen[4][THREADS];  /* one row per phase: a thread that has gone on must not overwrite
                                         what a slower one has still to read */
    __shared__ int copied[THREADS];
    int t = threadIdx.x;
    if (t == 0) init(&bar, THREADS, count_phases{phase_count});
    __syncthreads();

    // phase 0: the threads arrive from two branches; the later threads do more work first
    seen[0][t] = t * 3;
    if (t % 2 == 0) {
        bar.arrive_and_wait();
    } else {
        int spin = 0;
        for (int k = 0; k < t * 10; k++) spin += k;
        seen[0][t] += spin - spin;
        bar.arrive_and_wait();
    }
    out[t * 8 + 0] = seen[0][(t + 1) % THREADS];

    // phase 1: arrive, then work that needs no other thread, then wait with the token
    seen[1][t] = t + 100;
    auto token = bar.arrive();
    int mine = t * 2;
    bar.wait(std::move(token));
    out[t * 8 + 1] = seen[1][THREADS - 1 - t] + mine;

    // phase 2: thread 0 arrives for itself and the last thread, which then does not arrive
    seen[2][t] = t + 200;
    if (t == 0) {
        bar.wait(bar.arrive(2));
    } else if (t != THREADS - 1) {
        bar.arrive_and_wait();
    }
    out[t * 8 + 2] = t == THREADS - 1 ? -1 : seen[2][(t + 2) % (THREADS - 1)];
    __syncthreads();

    // phase 3: the last thread drops out; phase 4 needs the other 63 only
    if (t == THREADS - 1) {
        bar.arrive_and_drop();
    } else {
        bar.arrive_and_wait();
        seen[3][t] = t + 400;
        bar.arrive_and_wait();
        out[t * 8 + 3] = seen[3][(t + 5) % (THREADS - 1)];
    }

    // phase 5: each thread copies its element asynchronously; the phase completes the copies
    if (t != THREADS - 1) {
        cuda::memcpy_async(&copied[t], &src[t], sizeof(int), bar);
        bar.arrive_and_wait();
        out[t * 8 + 4] = copied[THREADS - 2 - t];
    }
}

int main(void)
{
    int *d_out = NULL, *d_src = NULL, *d_phases = NULL;
    int h_out[THREADS * 8], h_src[THREADS], h_phases = 0;
    for (int i = 0; i < THREADS; i++) h_src[i] = 1000 + i;
    cudaMalloc(&d_out, sizeof h_out);
    cudaMalloc(&d_src, sizeof h_src);
    cudaMalloc(&d_phases, sizeof(int));
    cudaMemcpy(d_src, h_src, sizeof h_src, cudaMemcpyHostToDevice);
    cudaMemset(d_phases, 0, sizeof(int));
    phases<<<1, THREADS>>>(d_out, d_src, d_phases);
    check("the kernel runs", cudaDeviceSynchronize(), 0);
    cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    cudaMemcpy(&h_phases, d_phases, sizeof(int), cudaMemcpyDeviceToHost);
    int bad[5] = {0};
    for (int t = 0; t < THREADS; t++) {
        bad[0] += h_out[t * 8 + 0] != (t + 1) % THREADS * 3;
        bad[1] += h_out[t * 8 + 1] != THREADS - 1 - t + 100 + t * 2;
        bad[2] += h_out[t * 8 + 2] != (t == THREADS - 1 ? -1 : (t + 2) % (THREADS - 1) + 200);
        if (t == THREADS - 1) continue;
        bad[3] += h_out[t * 8 + 3] != (t + 5) % (THREADS - 1) + 400;
        bad[4] += h_out[t * 8 + 4] != 1000 + THREADS - 2 - t;
    }
    check("arrive_and_wait from two branches waits for every thread (threads wrong)", bad[0], 0);
    check("wait(token) after other work sees every arrival's writes (threads wrong)", bad[1], 0);
    check("arrive(2) counts two arrivals (threads wrong)", bad[2], 0);
    check("after arrive_and_drop a phase needs one arrival fewer (threads wrong)", bad[3], 0);
    check("memcpy_async is complete when the phase completes (threads wrong)", bad[4], 0);
    check("the completion function ran once per phase", h_phases, 6);
    cudaFree(d_out);
    cudaFree(d_src);
    cudaFree(d_phases);
    return 0;
}
