// fact: Free: cudaFree of a malloc pointer, a stack pointer, an interior pointer (p+1) or a pointer already
// freed returns 1 "invalid argument"; not sticky; sets the last error.
#include <stdlib.h>
#include <string.h>
#include "check.h"

int main(void)
{
    int stack_var = 0;
    char *host = (char *)malloc(64);
    char *d = NULL;
    cudaMalloc(&d, 1024);
    cudaError_t e = cudaFree(host);
    check("cudaFree of a malloc pointer returns 1", e, cudaErrorInvalidValue);
    check("its string is \"invalid argument\"", strcmp(cudaGetErrorString(e), "invalid argument"), 0);
    check("it sets the last error", cudaGetLastError(), 1);
    check("cudaFree of a stack pointer returns 1", cudaFree(&stack_var), 1);
    check("cudaFree of an interior pointer returns 1", cudaFree(d + 1), 1);
    check("cudaFree of the allocation returns 0 (not sticky)", cudaFree(d), 0);
    check("cudaFree of a pointer already freed returns 1", cudaFree(d), 1);
    check("the last error is 1", cudaGetLastError(), 1);
    check("then 0", cudaGetLastError(), 0);
    check("later calls still work", cudaMalloc(&d, 16), 0);
    cudaFree(d);
    free(host);
    return 0;
}
