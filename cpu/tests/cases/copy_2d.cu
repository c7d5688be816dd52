// fact: Copies: cudaMemcpy2D with width > dpitch or width > spitch returns 12 "invalid pitch argument".
// fact: Copies: cudaMemcpy2D with height x pitch past the allocation returns 1.
#include <string.h>
#include "check.h"

int main(void)
{
    char h[64 * 10];
    char *d = NULL;
    size_t pitch = 0;
    cudaMallocPitch(&d, &pitch, 64, 10);
    cudaError_t e = cudaMemcpy2D(d, pitch, h, 32, 64, 10, cudaMemcpyHostToDevice);
    check("width > spitch returns 12", e, cudaErrorInvalidPitchValue);
    check("its string is \"invalid pitch argument\"", strcmp(cudaGetErrorString(e), "invalid pitch argument"), 0);
    check("width > dpitch returns 12", cudaMemcpy2D(d, 32, h, 64, 64, 10, cudaMemcpyHostToDevice), 12);
    check("height x pitch past the allocation returns 1",
          cudaMemcpy2D(d, pitch, h, 64, 64, 11, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    check("a copy that fits returns 0", cudaMemcpy2D(d, pitch, h, 64, 64, 10, cudaMemcpyHostToDevice), 0);
    cudaGetLastError();
    cudaFree(d);
    return 0;
}
