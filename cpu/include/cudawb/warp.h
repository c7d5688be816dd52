/* cudawb/warp.h: warp-level primitives and the integer intrinsics, for the CPU backend (src/warp.cpp).
   A warp is 32 consecutive threads of the block in x-major linear order (the last one may be partial). Every
   lane named in a primitive's mask meets the others there: the kernel runs its threads as fibers (the
   rewriter marks it), and the exchange is computed once the named lanes have all arrived (or exited). */
#ifndef CUDAWB_WARP_H
#define CUDAWB_WARP_H
#include <stdint.h>
#include <string.h>

namespace cudawb {
enum warp_op {
    W_SHFL_IDX, W_SHFL_UP, W_SHFL_DOWN, W_SHFL_XOR, W_BALLOT, W_ANY, W_ALL, W_SYNC, W_ACTIVE, W_MATCH_ANY,
    W_MATCH_ALL, W_ADD, W_MIN, W_MAX, W_MIN_S, W_MAX_S, W_AND, W_OR, W_XOR
};
/* the running lane's part of one warp-wide operation: its value, the lane or delta, the segment width */
uint64_t warp_exchange(int op, unsigned mask, uint64_t value, int arg, int width);
template <class T> inline uint64_t to_bits(T v) {
    static_assert(sizeof(T) <= 8, "a warp shuffle moves at most 8 bytes at a time");
    uint64_t b = 0;
    memcpy(&b, &v, sizeof v);
    return b;
}
template <class T> inline T from_bits(uint64_t b) {
    T v;
    memcpy(&v, &b, sizeof v);
    return v;
}
template <class T> inline T shfl(int op, unsigned mask, T var, int arg, int width) {
    return from_bits<T>(warp_exchange(op, mask, to_bits(var), arg, width));
}
} // namespace cudawb

/* shuffles: every arithmetic type nvcc accepts (int, unsigned, long, long long and their unsigned forms,
   float, double); width is a power of two up to 32 */
template <class T> inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32) {
    return cudawb::shfl(cudawb::W_SHFL_IDX, mask, var, srcLane, width);
}
template <class T> inline T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width = 32) {
    return cudawb::shfl(cudawb::W_SHFL_UP, mask, var, (int)delta, width);
}
template <class T> inline T __shfl_down_sync(unsigned mask, T var, unsigned int delta, int width = 32) {
    return cudawb::shfl(cudawb::W_SHFL_DOWN, mask, var, (int)delta, width);
}
template <class T> inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32) {
    return cudawb::shfl(cudawb::W_SHFL_XOR, mask, var, laneMask, width);
}
/* votes */
static inline unsigned __ballot_sync(unsigned mask, int pred) {
    return (unsigned)cudawb::warp_exchange(cudawb::W_BALLOT, mask, pred != 0, 0, 32);
}
static inline int __any_sync(unsigned mask, int pred) {
    return (int)cudawb::warp_exchange(cudawb::W_ANY, mask, pred != 0, 0, 32);
}
static inline int __all_sync(unsigned mask, int pred) {
    return (int)cudawb::warp_exchange(cudawb::W_ALL, mask, pred != 0, 0, 32);
}
static inline unsigned __activemask(void) {
    return (unsigned)cudawb::warp_exchange(cudawb::W_ACTIVE, 0, 0, 0, 32);
}
static inline void __syncwarp(unsigned mask = 0xffffffffu) {
    cudawb::warp_exchange(cudawb::W_SYNC, mask, 0, 0, 32);
    /* under racecheck: the lanes' shared-memory accesses before it are ordered before those after it */
    if (__builtin_expect(cudawb::shared_checks == cudawb::SH_RACECHECK, 0)) cudawb::race_syncwarp();
}
/* match: lanes whose value is bitwise equal (32- and 64-bit types) */
template <class T> inline unsigned __match_any_sync(unsigned mask, T value) {
    return (unsigned)cudawb::warp_exchange(cudawb::W_MATCH_ANY, mask, cudawb::to_bits(value), 0, 32);
}
template <class T> inline unsigned __match_all_sync(unsigned mask, T value, int *pred) {
    uint64_t r = cudawb::warp_exchange(cudawb::W_MATCH_ALL, mask, cudawb::to_bits(value), 0, 32);
    *pred = (int)(r >> 32);
    return (unsigned)r;
}
/* reductions over the named lanes (unsigned, and int for add/min/max as CUDA declares them) */
static inline unsigned __reduce_add_sync(unsigned mask, unsigned v) {
    return (unsigned)cudawb::warp_exchange(cudawb::W_ADD, mask, v, 0, 32);
}
static inline int __reduce_add_sync(unsigned mask, int v) {
    return (int)cudawb::warp_exchange(cudawb::W_ADD, mask, (unsigned)v, 0, 32);
}
static inline unsigned __reduce_min_sync(unsigned mask, unsigned v) {
    return (unsigned)cudawb::warp_exchange(cudawb::W_MIN, mask, v, 0, 32);
}
static inline int __reduce_min_sync(unsigned mask, int v) {
    return (int)cudawb::warp_exchange(cudawb::W_MIN_S, mask, (unsigned)v, 0, 32);
}
static inline unsigned __reduce_max_sync(unsigned mask, unsigned v) {
    return (unsigned)cudawb::warp_exchange(cudawb::W_MAX, mask, v, 0, 32);
}
static inline int __reduce_max_sync(unsigned mask, int v) {
    return (int)cudawb::warp_exchange(cudawb::W_MAX_S, mask, (unsigned)v, 0, 32);
}
static inline unsigned __reduce_and_sync(unsigned mask, unsigned v) {
    return (unsigned)cudawb::warp_exchange(cudawb::W_AND, mask, v, 0, 32);
}
static inline unsigned __reduce_or_sync(unsigned mask, unsigned v) {
    return (unsigned)cudawb::warp_exchange(cudawb::W_OR, mask, v, 0, 32);
}
static inline unsigned __reduce_xor_sync(unsigned mask, unsigned v) {
    return (unsigned)cudawb::warp_exchange(cudawb::W_XOR, mask, v, 0, 32);
}

/* integer intrinsics missing from device.h, as the CUDA Math API documents them */
static inline unsigned long long __brevll(unsigned long long x) {
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
/* result byte i = byte selector s[4i+2:4i] of the 8 bytes {y:x} (x the low four) */
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
    uint64_t both = ((uint64_t)y << 32) | x;
    unsigned r = 0;
    for (int i = 0; i < 4; i++) r |= (unsigned)((both >> (((s >> (4 * i)) & 7) * 8)) & 0xff) << (8 * i);
    return r;
}
static inline long long __mul64hi(long long x, long long y) { return (long long)(((__int128)x * y) >> 64); }
static inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
    return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
/* funnel shifts: the 64-bit {hi:lo} shifted, the high (left) or low (right) word kept; the shift is taken
   modulo 32 (_l, _r) or clamped to 32 (_lc, _rc) */
static inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
    return (unsigned)(((((uint64_t)hi << 32) | lo) << (shift & 31)) >> 32);
}
static inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
    return shift >= 32 ? lo : __funnelshift_l(lo, hi, shift);
}
static inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
    return (unsigned)((((uint64_t)hi << 32) | lo) >> (shift & 31));
}
static inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
    return shift >= 32 ? hi : __funnelshift_r(lo, hi, shift);
}
#endif
