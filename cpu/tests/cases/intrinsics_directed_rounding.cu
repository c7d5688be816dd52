// device math: the arithmetic intrinsics with a rounding mode, _rn (nearest even), _rz (toward zero), _ru
// (up), _rd (down), for float and double: add, sub, mul, div, rcp, sqrt, fma, correctly rounded as IEEE
// 754 says (cuda-samples' interval builds interval arithmetic on them). Printed in hexadecimal: exact.
#include <stdio.h>

#define OPS 7

__global__ void rounded(float *f, double *d)
{
    float x = -1.0f, y = 3.0f, tiny = 1e-9f;
    float fr[OPS][4] = {
        {__fadd_rn(x, -tiny), __fadd_rz(x, -tiny), __fadd_ru(x, -tiny), __fadd_rd(x, -tiny)},
        {__fsub_rn(-x, tiny), __fsub_rz(-x, tiny), __fsub_ru(-x, tiny), __fsub_rd(-x, tiny)},
        {__fmul_rn(y, -0.1f), __fmul_rz(y, -0.1f), __fmul_ru(y, -0.1f), __fmul_rd(y, -0.1f)},
        {__fdiv_rn(x, y), __fdiv_rz(x, y), __fdiv_ru(x, y), __fdiv_rd(x, y)},
        {__frcp_rn(y), __frcp_rz(y), __frcp_ru(y), __frcp_rd(y)},
        {__fsqrt_rn(2.0f), __fsqrt_rz(2.0f), __fsqrt_ru(2.0f), __fsqrt_rd(2.0f)},
        {__fmaf_rn(0.1f, y, x), __fmaf_rz(0.1f, y, x), __fmaf_ru(0.1f, y, x), __fmaf_rd(0.1f, y, x)},
    };
    double a = -1.0, b = 3.0, small = 1e-20;
    double dr[OPS][4] = {
        {__dadd_rn(a, -small), __dadd_rz(a, -small), __dadd_ru(a, -small), __dadd_rd(a, -small)},
        {__dsub_rn(-a, small), __dsub_rz(-a, small), __dsub_ru(-a, small), __dsub_rd(-a, small)},
        {__dmul_rn(b, -0.1), __dmul_rz(b, -0.1), __dmul_ru(b, -0.1), __dmul_rd(b, -0.1)},
        {__ddiv_rn(a, b), __ddiv_rz(a, b), __ddiv_ru(a, b), __ddiv_rd(a, b)},
        {__drcp_rn(b), __drcp_rz(b), __drcp_ru(b), __drcp_rd(b)},
        {__dsqrt_rn(2.0), __dsqrt_rz(2.0), __dsqrt_ru(2.0), __dsqrt_rd(2.0)},
        {__fma_rn(0.1, b, a), __fma_rz(0.1, b, a), __fma_ru(0.1, b, a), __fma_rd(0.1, b, a)},
    };
    for (int i = 0; i < OPS * 4; i++) {
        f[i] = fr[i / 4][i % 4];
        d[i] = dr[i / 4][i % 4];
    }
}

int main(void)
{
    const char *op[OPS] = {"add", "sub", "mul", "div", "rcp", "sqrt", "fma"}, *mode[4] = {"rn", "rz", "ru", "rd"};
    float *df = NULL, hf[OPS * 4];
    double *dd = NULL, hd[OPS * 4];
    cudaMalloc(&df, sizeof hf);
    cudaMalloc(&dd, sizeof hd);
    rounded<<<1, 1>>>(df, dd);
    cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost);
    cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost);
    for (int i = 0; i < OPS * 4; i++)
        printf("%-4s _%s  float %-16a double %a\n", op[i / 4], mode[i % 4], hf[i], hd[i]);
    cudaFree(df);
    cudaFree(dd);
    return 0;
}
