// fact: A cuBLAS call on a capturing stream (cublasSetStream) becomes part of the graph instead of running:
// y = 2x + y captured once and launched 3 times gives y + 6x.
// test-libs: -lcublas
#include <cublas_v2.h>
#include "check.h"

int main(void)
{
    const int n = 100;
    float x[n], y[n], *dx, *dy;
    for (int i = 0; i < n; i++) x[i] = (float)i, y[i] = 1.0f;
    cudaMalloc(&dx, sizeof x);
    cudaMalloc(&dy, sizeof y);
    cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice);
    cublasHandle_t h;
    check("cublasCreate returns 0", cublasCreate(&h), 0);
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cublasSetStream(h, s);
    float alpha = 2.0f;
    cudaGraph_t g;
    check("cudaStreamBeginCapture returns 0", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), 0);
    check("cublasSaxpy during the capture returns 0", cublasSaxpy(h, n, &alpha, dx, 1, dy, 1), 0);
    check("cudaStreamEndCapture returns 0", cudaStreamEndCapture(s, &g), 0);
    cudaDeviceSynchronize();
    cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
    check("the captured call did not run", y[10] == 1.0f, 1);
    cudaGraphExec_t e;
    check("cudaGraphInstantiate returns 0", cudaGraphInstantiate(&e, g, 0), 0);
    for (int k = 0; k < 3; k++) cudaGraphLaunch(e, s);
    check("cudaStreamSynchronize returns 0", cudaStreamSynchronize(s), 0);
    cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += y[i] != 1.0f + 6.0f * i;
    check("3 launches: y = 1 + 6x", bad, 0);
    cudaGraphExecDestroy(e);
    cudaGraphDestroy(g);
    cublasDestroy(h);
    cudaStreamDestroy(s);
    cudaFree(dx);
    cudaFree(dy);
    check("no error", cudaGetLastError(), 0);
    return 0;
}
