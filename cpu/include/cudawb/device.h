/* cudawb/device.h: what kernel code sees on the CPU backend: built-in index variables, barriers, atomics,
   fences, device printf/assert and the GPU-only math intrinsics. Kernels are ordinary C++ functions run by
   the runtime (cpu/src/launch.cpp); a block's threads run on one worker thread, so per-worker (__thread)
   state is per-block state. */
#ifndef CUDAWB_DEVICE_H
#define CUDAWB_DEVICE_H
#include <math.h>
#include "../vector_types.h"

/* Set by the runtime before each thread runs (plain stores: the block's threads share one OS thread). */
extern __thread uint3 threadIdx, blockIdx;
extern __thread dim3 blockDim, gridDim;
static const int warpSize = 32;

void __syncthreads(void);
int __syncthreads_count(int predicate);
int __syncthreads_and(int predicate);
int __syncthreads_or(int predicate);
int cudawb_printf(const char *format, ...);
void __trap(void) __attribute__((noreturn)); /* ends the kernel: 719 "unspecified launch failure" */
static inline void __brkpt(void) { __trap(); }
static inline void __nanosleep(unsigned int ns) { (void)ns; }
void cudawb_assert_fail(const char *expr, const char *file, unsigned int line, const char *function)
    __attribute__((noreturn));

/* extern __shared__ arrays become pointers initialised from this (cpu/tools/cudapp.cpp): it converts to any
   object pointer type, so the rewriter need not spell the array's element type */
void *cudawb_dynamic_shared_address(void);
namespace cudawb {
struct dynamic_shared {
    template <class T> operator T *() const { return (T *)cudawb_dynamic_shared_address(); }
};
} // namespace cudawb
#include "shared_check.h" /* the checkers' wrapper around shared-memory accesses */

#define __forceinline__ inline __attribute__((always_inline))
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __grid_constant__
#define __CUDACC__ 1
#define __NVCC__ 1
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define CUDAWB_CPU 1

static inline void __threadfence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_block(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_system(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline long long clock64(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000000LL + t.tv_nsec; }
template <class T> static inline T __ldg(const T *p) { return *p; }

/* Atomics: blocks run in parallel on the host's cores, so these are real atomic instructions. */
#define CUDAWB_ATOMIC_INT(T)                                                                                   \
    static inline T atomicAdd(T *a, T v) { return __atomic_fetch_add(a, v, __ATOMIC_RELAXED); }              \
    static inline T atomicSub(T *a, T v) { return __atomic_fetch_sub(a, v, __ATOMIC_RELAXED); }              \
    static inline T atomicExch(T *a, T v) { return __atomic_exchange_n(a, v, __ATOMIC_RELAXED); }            \
    static inline T atomicAnd(T *a, T v) { return __atomic_fetch_and(a, v, __ATOMIC_RELAXED); }              \
    static inline T atomicOr(T *a, T v) { return __atomic_fetch_or(a, v, __ATOMIC_RELAXED); }                \
    static inline T atomicXor(T *a, T v) { return __atomic_fetch_xor(a, v, __ATOMIC_RELAXED); }              \
    static inline T atomicCAS(T *a, T cmp, T v) {                                                            \
        __atomic_compare_exchange_n(a, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);                  \
        return cmp;                                                                                          \
    }                                                                                                        \
    static inline T atomicMin(T *a, T v) {                                                                   \
        T old = __atomic_load_n(a, __ATOMIC_RELAXED);                                                        \
        while (v < old && !__atomic_compare_exchange_n(a, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) \
            ;                                                                                                \
        return old;                                                                                          \
    }                                                                                                        \
    static inline T atomicMax(T *a, T v) {                                                                   \
        T old = __atomic_load_n(a, __ATOMIC_RELAXED);                                                        \
        while (v > old && !__atomic_compare_exchange_n(a, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) \
            ;                                                                                                \
        return old;                                                                                          \
    }
CUDAWB_ATOMIC_INT(int)
CUDAWB_ATOMIC_INT(unsigned int)
CUDAWB_ATOMIC_INT(unsigned long long)
CUDAWB_ATOMIC_INT(long long)
#undef CUDAWB_ATOMIC_INT

#define CUDAWB_ATOMIC_FP(T, U)                                                                                 \
    static inline T atomicAdd(T *a, T v) {                                                                   \
        U old = __atomic_load_n((U *)a, __ATOMIC_RELAXED), upd;                                              \
        T f;                                                                                                 \
        do {                                                                                                 \
            memcpy(&f, &old, sizeof f);                                                                      \
            f += v;                                                                                          \
            memcpy(&upd, &f, sizeof f);                                                                      \
        } while (!__atomic_compare_exchange_n((U *)a, &old, upd, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)); \
        memcpy(&f, &old, sizeof f);                                                                          \
        return f;                                                                                            \
    }                                                                                                        \
    static inline T atomicExch(T *a, T v) {                                                                  \
        U u, old;                                                                                            \
        memcpy(&u, &v, sizeof u);                                                                            \
        old = __atomic_exchange_n((U *)a, u, __ATOMIC_RELAXED);                                              \
        memcpy(&v, &old, sizeof v);                                                                          \
        return v;                                                                                            \
    }
CUDAWB_ATOMIC_FP(float, unsigned int)
CUDAWB_ATOMIC_FP(double, unsigned long long)
#undef CUDAWB_ATOMIC_FP

static inline unsigned int atomicInc(unsigned int *a, unsigned int limit) {
    unsigned int old = __atomic_load_n(a, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(a, &old, old >= limit ? 0 : old + 1, true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED))
        ;
    return old;
}
static inline unsigned int atomicDec(unsigned int *a, unsigned int limit) {
    unsigned int old = __atomic_load_n(a, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(a, &old, (old == 0 || old > limit) ? limit : old - 1, true,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
    return old;
}
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicCAS_block atomicCAS
#define atomicExch_block atomicExch
#define atomicMax_block atomicMax
#define atomicMin_block atomicMin

/* min/max as nvcc declares them for host and device code */
#define CUDAWB_MINMAX(T)                                                                                      \
    static inline T min(T a, T b) { return a < b ? a : b; }                                                  \
    static inline T max(T a, T b) { return a > b ? a : b; }
CUDAWB_MINMAX(int)
CUDAWB_MINMAX(unsigned int)
CUDAWB_MINMAX(long)
CUDAWB_MINMAX(unsigned long)
CUDAWB_MINMAX(long long)
CUDAWB_MINMAX(unsigned long long)
#undef CUDAWB_MINMAX
static inline float min(float a, float b) { return fminf(a, b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }
static inline unsigned int min(int a, unsigned int b) { return min((unsigned int)a, b); }
static inline unsigned int min(unsigned int a, int b) { return min(a, (unsigned int)b); }
static inline unsigned int max(int a, unsigned int b) { return max((unsigned int)a, b); }
static inline unsigned int max(unsigned int a, int b) { return max(a, (unsigned int)b); }
static inline double min(float a, double b) { return fmin(a, b); }
static inline double min(double a, float b) { return fmin(a, b); }
static inline double max(float a, double b) { return fmax(a, b); }
static inline double max(double a, float b) { return fmax(a, b); }

/* GPU-only math: the fast intrinsics are computed exactly (results may differ in the last bits from a GPU) */
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
/* glibc already declares these names (as its own aliases), so they are macros here */
#define __expf(x) expf(x)
#define __exp10f(x) exp10f(x)
#define __logf(x) logf(x)
#define __log2f(x) log2f(x)
#define __log10f(x) log10f(x)
#define __sinf(x) sinf(x)
#define __cosf(x) cosf(x)
#define __tanf(x) tanf(x)
#define __powf(x, y) powf(x, y)
#define __sincosf(x, s, c) sincosf(x, s, c)
static inline float __fdividef(float x, float y) { return x / y; }
static inline float __frcp_rn(float x) { return 1.0f / x; }
static inline float __fsqrt_rn(float x) { return sqrtf(x); }
static inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
static inline float __fadd_rn(float x, float y) { return x + y; }
static inline float __fsub_rn(float x, float y) { return x - y; }
static inline float __fmul_rn(float x, float y) { return x * y; }
static inline float __fdiv_rn(float x, float y) { return x / y; }
static inline float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
static inline double __dadd_rn(double x, double y) { return x + y; }
static inline double __dmul_rn(double x, double y) { return x * y; }
static inline double __dsub_rn(double x, double y) { return x - y; }
static inline double __ddiv_rn(double x, double y) { return x / y; }
static inline double __drcp_rn(double x) { return 1.0 / x; }
static inline double __dsqrt_rn(double x) { return sqrt(x); }
static inline double __fma_rn(double x, double y, double z) { return fma(x, y, z); }
#include "rounding.h" /* the _rz, _ru, _rd forms */
static inline float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
static inline float sinpif(float x) { return sinf(3.14159265358979323846f * x); }
static inline float cospif(float x) { return cosf(3.14159265358979323846f * x); }
static inline double sinpi(double x) { return sin(3.14159265358979323846 * x); }
static inline double cospi(double x) { return cos(3.14159265358979323846 * x); }
static inline void sincospif(float x, float *s, float *c) { *s = sinpif(x); *c = cospif(x); }
static inline int __float2int_rn(float x) { return (int)nearbyintf(x); }
static inline int __float2int_rz(float x) { return (int)x; }
static inline int __float2int_rd(float x) { return (int)floorf(x); }
static inline int __float2int_ru(float x) { return (int)ceilf(x); }
static inline unsigned int __float2uint_rn(float x) { return (unsigned int)nearbyintf(x); }
static inline float __int2float_rn(int x) { return (float)x; }
static inline float __uint2float_rn(unsigned int x) { return (float)x; }
static inline int __double2int_rn(double x) { return (int)nearbyint(x); }
static inline float __double2float_rn(double x) { return (float)x; }
static inline int __float_as_int(float x) { int i; memcpy(&i, &x, 4); return i; }
static inline unsigned int __float_as_uint(float x) { unsigned int i; memcpy(&i, &x, 4); return i; }
static inline float __int_as_float(int i) { float x; memcpy(&x, &i, 4); return x; }
static inline float __uint_as_float(unsigned int i) { float x; memcpy(&x, &i, 4); return x; }
static inline long long __double_as_longlong(double x) { long long i; memcpy(&i, &x, 8); return i; }
static inline double __longlong_as_double(long long i) { double x; memcpy(&x, &i, 8); return x; }
static inline int __popc(unsigned int x) { return __builtin_popcount(x); }
/* CUDA's integer minimum and maximum for the unsigned and 64-bit types (int's are std::min/max's): */
static inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
static inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
static inline long long llmin(long long a, long long b) { return a < b ? a : b; }
static inline long long llmax(long long a, long long b) { return a > b ? a : b; }
static inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
static inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned int)x); }
static inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline unsigned int __brev(unsigned int x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
}
static inline int __mul24(int x, int y) { return (int)((long long)(x << 8 >> 8) * (y << 8 >> 8)); }
static inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
static inline int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
static inline unsigned int __umulhi(unsigned int x, unsigned int y) { return (unsigned int)(((unsigned long long)x * y) >> 32); }
static inline unsigned int __sad(int x, int y, unsigned int z) { return z + (unsigned int)(x > y ? x - y : y - x); }
static inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return z + (x > y ? x - y : y - x); }
#endif
