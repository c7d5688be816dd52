// kernel feature: the integer intrinsics (__popc, __ffs, __clz, __brev and their 64-bit forms, __byte_perm
// with the documented 3-bit selectors, __mul24, __umul24, __mulhi, __umulhi, __mul64hi, __umul64hi, __sad,
// __usad, the four funnel shifts), run in a kernel on chosen inputs and compared with plain C computations
// of their documented definitions.
#include "check.h"
#include <stdint.h>

#define N 16
__global__ void intrinsics(const unsigned *a, const unsigned *b, long long *out)
{
    int i = threadIdx.x;
    unsigned x = a[i], y = b[i];
    unsigned long long xx = (unsigned long long)x << 32 | y;
    long long *o = out + i * 24;
    o[0] = __popc(x); o[1] = __popcll(xx); o[2] = __ffs((int)x); o[3] = __ffsll((long long)xx);
    o[4] = __clz((int)x); o[5] = __clzll((long long)xx); o[6] = __brev(x); o[7] = (long long)__brevll(xx);
    o[8] = __byte_perm(x, y, (0x3210 + i * 0x1357) & 0x7777);
    o[9] = __byte_perm(x, y, (0x7654 ^ i * 0x123) & 0x7777);
    o[10] = __mul24((int)x, (int)y); o[11] = __umul24(x, y); o[12] = __mulhi((int)x, (int)y);
    o[13] = __umulhi(x, y); o[14] = __mul64hi((long long)xx, (long long)(xx * 3));
    o[15] = (long long)__umul64hi(xx, xx * 3); o[16] = __sad((int)x, (int)y, 5u); o[17] = __usad(x, y, 5u);
    o[18] = __funnelshift_l(x, y, i * 3); o[19] = __funnelshift_lc(x, y, i * 3);
    o[20] = __funnelshift_r(x, y, i * 3); o[21] = __funnelshift_rc(x, y, i * 3);
}

static unsigned bitrev(unsigned v) { unsigned r = 0; for (int k = 0; k < 32; k++) r |= (v >> k & 1) << (31 - k); return r; }
static int lead0(unsigned long long v, int bits) { int n = 0; while (n < bits && !(v >> (bits - 1 - n) & 1)) n++; return n; }
static int first1(unsigned long long v) { for (int k = 0; k < 64; k++) if (v >> k & 1) return k + 1; return 0; }
static int ones(unsigned long long v) { int n = 0; for (; v; v >>= 1) n += v & 1; return n; }
static unsigned perm(unsigned x, unsigned y, unsigned s)
{
    unsigned char bytes[8];
    for (int k = 0; k < 4; k++) { bytes[k] = x >> (8 * k) & 0xff; bytes[k + 4] = y >> (8 * k) & 0xff; }
    unsigned r = 0;
    for (int k = 0; k < 4; k++) r |= (unsigned)bytes[s >> (4 * k) & 7] << (8 * k);
    return r;
}
static long long sext24(unsigned v) { return (long long)(int32_t)(v << 8) / 256; }

int main(void)
{
    unsigned ha[N], hb[N];
    long long got[N * 24], *d_out = NULL;
    unsigned *da = NULL, *db = NULL;
    unsigned seed = 12345;
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u; ha[i] = seed;
        seed = seed * 1103515245u + 12345u; hb[i] = seed >> (i % 8);
    }
    ha[0] = 0; hb[1] = 0; ha[2] = 0x80000000u; hb[3] = 0xffffffffu;
    cudaMalloc(&da, sizeof ha); cudaMalloc(&db, sizeof hb); cudaMalloc(&d_out, sizeof got);
    cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
    intrinsics<<<1, N>>>(da, db, d_out);
    cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost);
    static const char *names[22] = {"__popc", "__popcll", "__ffs", "__ffsll", "__clz", "__clzll", "__brev",
                                    "__brevll", "__byte_perm", "__byte_perm (high selectors)", "__mul24",
                                    "__umul24", "__mulhi", "__umulhi", "__mul64hi", "__umul64hi", "__sad", "__usad",
                                    "__funnelshift_l", "__funnelshift_lc", "__funnelshift_r", "__funnelshift_rc"};
    int bad[22] = {0};
    for (int i = 0; i < N; i++) {
        unsigned x = ha[i], y = hb[i], s = i * 3, sc = s < 32 ? s : 32;
        unsigned long long xx = (unsigned long long)x << 32 | y, x3 = xx * 3;
        unsigned long long fl = (unsigned long long)y << 32 | x;
        __int128 sp = (__int128)(long long)xx * (long long)x3;
        long long want[22] = {
            ones(x), ones(xx), first1(x), first1(xx), lead0(x, 32), lead0(xx, 64), bitrev(x),
            (long long)((unsigned long long)bitrev(y) << 32 | bitrev(x)),
            perm(x, y, (0x3210 + i * 0x1357) & 0x7777), perm(x, y, (0x7654 ^ i * 0x123) & 0x7777),
            (int)(uint32_t)(sext24(x) * sext24(y)), (x & 0xffffff) * (y & 0xffffff),
            (int)(((long long)(int)x * (int)y) >> 32), (unsigned)(((unsigned long long)x * y) >> 32),
            (long long)(sp >> 64), (long long)(unsigned long long)(((unsigned __int128)xx * x3) >> 64),
            5u + (unsigned)((int)x > (int)y ? (long long)(int)x - (int)y : (long long)(int)y - (int)x),
            5u + (x > y ? x - y : y - x), (unsigned)((fl << (s % 32)) >> 32), (unsigned)((fl << sc) >> 32),
            (unsigned)(fl >> (s % 32)), (unsigned)(fl >> sc)};
        for (int k = 0; k < 22; k++) bad[k] += got[i * 24 + k] != want[k];
    }
    for (int k = 0; k < 22; k++) {
        char fact[80];
        snprintf(fact, sizeof fact, "%s on %d inputs (wrong results)", names[k], N);
        check(fact, bad[k], 0);
    }
    cudaFree(da); cudaFree(db); cudaFree(d_out);
    return 0;
}
