// kernel feature: cuda::pipeline (<cuda/pipeline>) copying global memory to shared memory through 2 stages:
// a block-scope pipeline every thread produces and consumes (a thread reads what another copied), one
// partitioned into a producer warp and two consumer warps (the producers run ahead until a stage is free),
// and a thread-scope pipeline (cuda::make_pipeline(), cuda::aligned_size_t); expected sums computed on the
// host from CUDA's documentation of the stages (acquire, commit, wait, release).
#include "check.h"
#include <cooperative_groups.h>
#include <cuda/pipeline>
namespace cg = cooperative_groups;

#define THREADS 64
#define CHUNKS 6
#define STAGES 2

/* every thread copies one element of each chunk, one chunk ahead, and adds its neighbour's */
__global__ void unified(int *out, const int *src)
{
    __shared__ int buf[STAGES][THREADS];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    cg::thread_block block = cg::this_thread_block();
    cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(block, &state);
    int t = threadIdx.x, sum = 0, fetched = 0;
    for (int c = 0; c < CHUNKS; c++) {
        for (; fetched < CHUNKS && fetched < c + STAGES; fetched++) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[fetched % STAGES][t], &src[fetched * THREADS + t], sizeof(int), pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        sum += buf[c % STAGES][(t + 1) % THREADS] * (c + 1);
        pipe.consumer_release();
    }
    out[t] = sum;
}

/* warp 0 produces (each lane copies 2 elements of a 64-element chunk), warps 1 and 2 consume */
__global__ void partitioned(int *out, const int *src)
{
    __shared__ int buf[STAGES][THREADS];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    cg::thread_block block = cg::this_thread_block();
    int t = threadIdx.x;
    cuda::pipeline_role role = t < 32 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
    auto pipe = cuda::make_pipeline(block, &state, role);
    int sum = 0;
    for (int c = 0; c < CHUNKS; c++) {
        if (role == cuda::pipeline_role::producer) {
            pipe.producer_acquire();
            for (int e = t; e < THREADS; e += 32)
                cuda::memcpy_async(&buf[c % STAGES][e], &src[c * THREADS + e], sizeof(int), pipe);
            pipe.producer_commit();
        } else {
            pipe.consumer_wait();
            sum += buf[c % STAGES][t - 32] * (c + 1);
            pipe.consumer_release();
        }
    }
    if (role == cuda::pipeline_role::consumer) out[t - 32] = sum;
}

/* each thread's own pipeline: it reads only what it copied itself */
__global__ void per_thread(int *out, const int *src)
{
    __shared__ alignas(16) int buf[STAGES][THREADS];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const auto one = cuda::aligned_size_t<alignof(int)>(sizeof(int));
    int t = threadIdx.x, sum = 0;
    pipe.producer_acquire();
    cuda::memcpy_async(&buf[0][t], &src[t], one, pipe);
    pipe.producer_commit();
    for (int c = 0; c < CHUNKS; c++) {
        if (c + 1 < CHUNKS) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[(c + 1) % STAGES][t], &src[(c + 1) * THREADS + t], one, pipe);
            pipe.producer_commit();
        }
        cuda::pipeline_consumer_wait_prior<1>(pipe);
        if (c + 1 == CHUNKS) pipe.consumer_wait();
        sum += buf[c % STAGES][t] * (c + 1);
        if (c + 1 < CHUNKS) pipe.consumer_wait();
        pipe.consumer_release();
    }
    out[t] = sum;
}

int main(void)
{
    int *d_out = NULL, *d_src = NULL;
    int h_src[CHUNKS * THREADS], h_out[THREADS];
    for (int i = 0; i < CHUNKS * THREADS; i++) h_src[i] = i % 97 + 1;
    cudaMalloc(&d_out, sizeof h_out);
    cudaMalloc(&d_src, sizeof h_src);
    cudaMemcpy(d_src, h_src, sizeof h_src, cudaMemcpyHostToDevice);

    int bad = 0;
    unified<<<1, THREADS>>>(d_out, d_src);
    check("unified block pipeline runs", cudaDeviceSynchronize(), 0);
    cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    for (int t = 0; t < THREADS; t++) {
        int want = 0;
        for (int c = 0; c < CHUNKS; c++) want += h_src[c * THREADS + (t + 1) % THREADS] * (c + 1);
        bad += h_out[t] != want;
    }
    check("unified: consumer_wait sees every thread's copy of the stage (threads wrong)", bad, 0);

    bad = 0;
    cudaMemset(d_out, 0, sizeof h_out);
    partitioned<<<1, 96>>>(d_out, d_src);
    check("partitioned block pipeline runs", cudaDeviceSynchronize(), 0);
    cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    for (int t = 0; t < THREADS; t++) {
        int want = 0;
        for (int c = 0; c < CHUNKS; c++) want += h_src[c * THREADS + t] * (c + 1);
        bad += h_out[t] != want;
    }
    check("partitioned: producers refill a stage only after the consumers release it (threads wrong)", bad, 0);

    bad = 0;
    cudaMemset(d_out, 0, sizeof h_out);
    per_thread<<<1, THREADS>>>(d_out, d_src);
    check("thread-scope pipeline runs", cudaDeviceSynchronize(), 0);
    cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    for (int t = 0; t < THREADS; t++) {
        int want = 0;
        for (int c = 0; c < CHUNKS; c++) want += h_src[c * THREADS + t] * (c + 1);
        bad += h_out[t] != want;
    }
    check("thread scope: a stage's copy is there after consumer_wait (threads wrong)", bad, 0);
    cudaFree(d_out);
    cudaFree(d_src);
    return 0;
}
