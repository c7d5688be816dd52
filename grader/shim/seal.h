/* seal.h: the seal on the trace's report (included by trace.c alone).

   The report is written inside the student's process, into a file the sandbox lets the process write: a
   program that knows the format could write a report of calls it never made and end with _exit, so that
   ours is never written. The grader therefore gives each run a fresh random key (in a file that
   CUDAWB_REPORT_KEY_FILE names, read and removed before any constructor, kept in a PROT_NONE page until the
   seal is made: grader/README.md, "The seal's key") and the report ends with
   "seal HEX", HEX = SHA-256(key || report || key). The grader believes a report only when its seal is the
   one its key gives (grader/lib/grading.bash, seal_check). Forging one then takes reading a page the
   program's own pointers cannot read, not writing a text file.

   SHA-256 as FIPS 180-4 defines it: small, dependency-free, and checked against coreutils' sha256sum by
   grader/lib/grading.bash itself at every run. */
#ifndef CUDAWB_SEAL_H
#define CUDAWB_SEAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct seal_sha256 {
    uint32_t h[8];
    unsigned char block[64];
    size_t fill;
    uint64_t bits;
};

static const uint32_t seal_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t seal_rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void seal_compress(struct seal_sha256 *s, const unsigned char *p)
{
    uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
    int i;
    for (i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (i = 16; i < 64; i++)
        w[i] = w[i - 16] + (seal_rotr(w[i - 15], 7) ^ seal_rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 7] +
               (seal_rotr(w[i - 2], 17) ^ seal_rotr(w[i - 2], 19) ^ (w[i - 2] >> 10));
    a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3], e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
    for (i = 0; i < 64; i++) {
        t1 = h + (seal_rotr(e, 6) ^ seal_rotr(e, 11) ^ seal_rotr(e, 25)) + ((e & f) ^ (~e & g)) + seal_k[i] + w[i];
        t2 = (seal_rotr(a, 2) ^ seal_rotr(a, 13) ^ seal_rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d, s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

static void seal_init(struct seal_sha256 *s)
{
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, h0, sizeof h0);
    s->fill = 0;
    s->bits = 0;
}

static void seal_update(struct seal_sha256 *s, const void *data, size_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    s->bits += (uint64_t)n * 8;
    while (n > 0) {
        size_t take = 64 - s->fill < n ? 64 - s->fill : n;
        memcpy(s->block + s->fill, p, take);
        s->fill += take, p += take, n -= take;
        if (s->fill == 64) {
            seal_compress(s, s->block);
            s->fill = 0;
        }
    }
}

/* Writes the digest as 64 lowercase hex digits and a NUL into hex. */
static void seal_final_hex(struct seal_sha256 *s, char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    uint64_t bits = s->bits;
    unsigned char pad = 0x80, len[8];
    int i;
    seal_update(s, &pad, 1);
    pad = 0;
    while (s->fill != 56)
        seal_update(s, &pad, 1);
    for (i = 0; i < 8; i++)
        len[i] = (unsigned char)(bits >> (56 - 8 * i));
    seal_update(s, len, 8);
    for (i = 0; i < 32; i++) {
        hex[2 * i] = digits[(s->h[i / 4] >> (24 - 8 * (i % 4)) >> 4) & 15];
        hex[2 * i + 1] = digits[(s->h[i / 4] >> (24 - 8 * (i % 4))) & 15];
    }
    hex[64] = '\0';
}

#endif
