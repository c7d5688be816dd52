// stream scheduling: under a seeded shuffle (CUDAWB_SCHEDULE=shuffle:SEED) the CPU backend runs independent
// streams' work in a random order, yet every order CUDA promises still holds: a chain of kernels handed from
// stream to stream through events, each chunk's copy in, kernel and copy out on one stream, and the legacy
// default stream's wait for blocking streams all give the right values, as they do on a GPU.
// test-env: CUDAWB_SCHEDULE=shuffle:20261201
#include "check.h"

#define CHUNKS 8
#define CHUNK 256

__global__ void add_one(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

int main(void)
{
    cudaStream_t s[3];
    cudaEvent_t done[3];
    int *d = NULL, *h = NULL;
    for (int k = 0; k < 3; k++) {
        cudaStreamCreate(&s[k]);
        cudaEventCreateWithFlags(&done[k], cudaEventDisableTiming);
    }
    cudaMalloc(&d, CHUNKS * CHUNK * sizeof(int));
    cudaMallocHost(&h, CHUNKS * CHUNK * sizeof(int));

    /* a chain: 30 increments of one chunk, each on the next stream, each waiting for the one before */
    cudaMemsetAsync(d, 0, CHUNK * sizeof(int), s[0]);
    cudaEventRecord(done[0], s[0]);
    for (int k = 1; k <= 30; k++) {
        cudaStreamWaitEvent(s[k % 3], done[(k - 1) % 3], 0);
        add_one<<<1, CHUNK, 0, s[k % 3]>>>(d, CHUNK);
        cudaEventRecord(done[k % 3], s[k % 3]);
    }
    cudaMemcpyAsync(h, d, CHUNK * sizeof(int), cudaMemcpyDeviceToHost, s[30 % 3]);
    cudaDeviceSynchronize();
    check("a chain of 30 kernels over three streams, tied by events, ran in order", h[CHUNK - 1], 30);

    /* a pipeline: each chunk in, through the kernel once and out, all three on stream c % 3 */
    for (int i = 0; i < CHUNKS * CHUNK; i++) h[i] = i;
    for (int c = 0; c < CHUNKS; c++) {
        int *dc = d + c * CHUNK, *hc = h + c * CHUNK;
        cudaMemcpyAsync(dc, hc, CHUNK * sizeof(int), cudaMemcpyHostToDevice, s[c % 3]);
        add_one<<<1, CHUNK, 0, s[c % 3]>>>(dc, CHUNK);
        cudaMemcpyAsync(hc, dc, CHUNK * sizeof(int), cudaMemcpyDeviceToHost, s[c % 3]);
    }
    cudaDeviceSynchronize();
    int right = 0;
    for (int i = 0; i < CHUNKS * CHUNK; i++) right += h[i] == i + 1;
    check("a pipeline over three streams gave every element once through the kernel", right, CHUNKS * CHUNK);

    /* the legacy default stream waits for the blocking streams' work before it, and they for its */
    add_one<<<1, CHUNK, 0, s[1]>>>(d, CHUNK);
    add_one<<<1, CHUNK, 0, s[2]>>>(d + CHUNK, CHUNK);
    cudaMemcpyAsync(h, d, 2 * CHUNK * sizeof(int), cudaMemcpyDeviceToHost, 0);
    add_one<<<1, CHUNK, 0, s[0]>>>(d, CHUNK);
    cudaDeviceSynchronize();
    check("a copy on the legacy stream saw both streams' kernels and not the one after it", h[0] + h[CHUNK], (0 + 1 + 1) + (CHUNK + 1 + 1));

    for (int k = 0; k < 3; k++) {
        cudaEventDestroy(done[k]);
        cudaStreamDestroy(s[k]);
    }
    cudaFree(d);
    cudaFreeHost(h);
    return 0;
}
