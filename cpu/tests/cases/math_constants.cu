// header: math_constants.h, CUDA's CUDART_* constants (Thrust's random distributions include it: cuda-samples'
// radixSortThrust), read in a kernel and compared by their bits.
#include <math_constants.h>
#include <string.h>
#include "check.h"

__global__ void read_constants(float *f, double *d)
{
    f[0] = CUDART_INF_F;
    f[1] = CUDART_NAN_F;
    f[2] = CUDART_PI_F;
    f[3] = CUDART_SQRT_HALF_F;
    f[4] = CUDART_NEG_ZERO_F;
    f[5] = CUDART_MIN_DENORM_F;
    d[0] = CUDART_INF;
    d[1] = CUDART_NAN;
    d[2] = CUDART_PI;
    d[3] = CUDART_PI_LO;
    d[4] = CUDART_LN2;
    d[5] = CUDART_TWO_TO_M1022;
}

static long long bits_f(float x) { unsigned u; memcpy(&u, &x, 4); return u; }
static long long bits_d(double x) { long long u; memcpy(&u, &x, 8); return u; }

int main(void)
{
    float *df = NULL, hf[6];
    double *dd = NULL, hd[6];
    cudaMalloc(&df, sizeof hf);
    cudaMalloc(&dd, sizeof hd);
    read_constants<<<1, 1>>>(df, dd);
    cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost);
    cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost);
    check("CUDART_INF_F", bits_f(hf[0]), 0x7f800000);
    check("CUDART_NAN_F", bits_f(hf[1]), 0x7fffffff);
    check("CUDART_PI_F", bits_f(hf[2]), 0x40490fdb);
    check("CUDART_SQRT_HALF_F", bits_f(hf[3]), 0x3f3504f3);
    check("CUDART_NEG_ZERO_F", bits_f(hf[4]), 0x80000000);
    check("CUDART_MIN_DENORM_F", bits_f(hf[5]), 1);
    check("CUDART_INF", bits_d(hd[0]), 0x7ff0000000000000LL);
    check("CUDART_NAN", bits_d(hd[1]), (long long)0xfff8000000000000ULL);
    check("CUDART_PI", bits_d(hd[2]), 0x400921fb54442d18LL);
    check("CUDART_PI_LO", bits_d(hd[3]), 0x3ca1a62633145c07LL);
    check("CUDART_LN2", bits_d(hd[4]), 0x3fe62e42fefa39efLL);
    check("CUDART_TWO_TO_M1022", bits_d(hd[5]), 0x0010000000000000LL);
    check("CUDART_REMQUO_MASK_F", CUDART_REMQUO_MASK_F, 7);
    check("CUDART_TWO_TO_53", (long long)CUDART_TWO_TO_53, 9007199254740992LL);
    cudaFree(df);
    cudaFree(dd);
    return 0;
}
