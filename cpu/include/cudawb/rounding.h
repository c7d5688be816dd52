/* cudawb/rounding.h: CUDA's arithmetic intrinsics that round toward zero (_rz), up (_ru) or down (_rd),
   correctly rounded as on the GPU: the CPU's IEEE unit does the operation under that mode (fesetround, or
   x86-64's SSE control register alone), then the thread's own mode comes back. The operands and the result
   go through volatile variables so that g++, which assumes round-to-nearest, can neither fold the operation
   at compile time nor move it out from between the two mode switches. (The _rn forms, device code's own
   mode, are plain operations: device.h.) */
#ifndef CUDAWB_ROUNDING_H
#define CUDAWB_ROUNDING_H
#include <fenv.h>
#include <math.h>

namespace cudawb {
#if defined(__x86_64__) && defined(__SSE2_MATH__)
/* x86-64 does float and double arithmetic (and glibc's sqrt and fma) in SSE, whose own control register
   holds the rounding mode: switching it alone costs a third of fesetround, which sets the x87 unit's too
   (9 ns against 24 a rounded add; cuda-samples' interval 42 s against 59 on 2 cores). Its rounding field
   is bits 13-14: glibc's FE_ modes shifted by 3. */
struct rounding_mode {
    unsigned saved;
    explicit rounding_mode(int mode) : saved(__builtin_ia32_stmxcsr()) {
        __builtin_ia32_ldmxcsr((saved & ~0x6000u) | (unsigned)mode << 3);
    }
    ~rounding_mode() { __builtin_ia32_ldmxcsr(saved); }
};
#else
struct rounding_mode {
    int saved;
    explicit rounding_mode(int mode) : saved(fegetround()) { fesetround(mode); }
    ~rounding_mode() { fesetround(saved); }
};
#endif
template <class T, class Op> inline T rounded(int mode, T x, T y, T z, Op op) {
    volatile T r;
    {
        rounding_mode under(mode);
        volatile T a = x, b = y, c = z;
        r = op(a, b, c);
    }
    return r;
}
} // namespace cudawb

/* NAME##SUFFIX(PARAMS): EXPR of a, b, c (the operands X, Y, Z; unused ones 0) under rounding MODE */
#define CUDAWB_ROUNDED_MODE(NAME, SUFFIX, MODE, T, PARAMS, X, Y, Z, EXPR)                                 \
    static inline T NAME##SUFFIX PARAMS {                                                                 \
        return cudawb::rounded<T>(MODE, X, Y, Z, [](T a, T b, T c) { return (void)b, (void)c, EXPR; });   \
    }
#define CUDAWB_ROUNDED(NAME, T, PARAMS, X, Y, Z, EXPR)                                                    \
    CUDAWB_ROUNDED_MODE(NAME, _rz, FE_TOWARDZERO, T, PARAMS, X, Y, Z, EXPR)                               \
    CUDAWB_ROUNDED_MODE(NAME, _ru, FE_UPWARD, T, PARAMS, X, Y, Z, EXPR)                                   \
    CUDAWB_ROUNDED_MODE(NAME, _rd, FE_DOWNWARD, T, PARAMS, X, Y, Z, EXPR)

CUDAWB_ROUNDED(__fadd, float, (float x, float y), x, y, 0.0f, a + b)
CUDAWB_ROUNDED(__fsub, float, (float x, float y), x, y, 0.0f, a - b)
CUDAWB_ROUNDED(__fmul, float, (float x, float y), x, y, 0.0f, a * b)
CUDAWB_ROUNDED(__fdiv, float, (float x, float y), x, y, 0.0f, a / b)
CUDAWB_ROUNDED(__frcp, float, (float x), x, 0.0f, 0.0f, 1.0f / a)
CUDAWB_ROUNDED(__fsqrt, float, (float x), x, 0.0f, 0.0f, sqrtf(a))
CUDAWB_ROUNDED(__fmaf, float, (float x, float y, float z), x, y, z, fmaf(a, b, c))
CUDAWB_ROUNDED(__dadd, double, (double x, double y), x, y, 0.0, a + b)
CUDAWB_ROUNDED(__dsub, double, (double x, double y), x, y, 0.0, a - b)
CUDAWB_ROUNDED(__dmul, double, (double x, double y), x, y, 0.0, a * b)
CUDAWB_ROUNDED(__ddiv, double, (double x, double y), x, y, 0.0, a / b)
CUDAWB_ROUNDED(__drcp, double, (double x), x, 0.0, 0.0, 1.0 / a)
CUDAWB_ROUNDED(__dsqrt, double, (double x), x, 0.0, 0.0, sqrt(a))
CUDAWB_ROUNDED(__fma, double, (double x, double y, double z), x, y, z, fma(a, b, c))
#undef CUDAWB_ROUNDED
#undef CUDAWB_ROUNDED_MODE
#endif
