// kernel feature: a 2-D kernel on pitched memory (rows reached through the pitch), copied back with cudaMemcpy2D.
#include "check.h"

__global__ void label(float *img, size_t pitch, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        float *row = (float *)((char *)img + y * pitch);
        row[x] = y * 1000.0f + x;
    }
}

int main(void)
{
    const int width = 300, height = 77;
    static float h[77][300];
    float *d = NULL;
    size_t pitch = 0;
    cudaMallocPitch(&d, &pitch, width * sizeof(float), height);
    check("the pitch of a 300-float row is 1536", pitch, 1536);
    dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
    label<<<grid, block>>>(d, pitch, width, height);
    cudaMemcpy2D(h, width * sizeof(float), d, pitch, width * sizeof(float), height, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) bad += h[y][x] != y * 1000.0f + x;
    check("every element holds row*1000+column", bad, 0);
    cudaFree(d);
    return 0;
}
