// gemm.h: C = alpha op(A) op(B) + beta C, column-major, for cublasSgemm and cublasDgemm (cublas.cpp).
//
// A lesson's 1024 x 1024 x 1024 product must take well under a second on one core, which a plain triple loop
// (2 GFLOP, one cache miss after another) cannot do. This is GotoBLAS's scheme: op(B) is packed KC x NC at a
// time and op(A) MC x KC at a time into contiguous panels, NR columns (B) or MR rows (A) wide, in the order
// the kernel reads them, so that whatever the transposes the kernel always streams unit-stride data out of
// the caches; the kernel keeps an MR x NR block of C in SIMD registers (GCC's vector extensions: 16-byte
// vectors, which both x86-64's SSE2 and aarch64's NEON have). Each element of C is still a plain sum over l
// in order, KC terms at a time, so results stay within float accuracy of a straightforward loop.
#ifndef CUDAWB_GEMM_H
#define CUDAWB_GEMM_H
#include <stdlib.h>
#include <string.h>

namespace rt {
template <class T> struct simd;
template <> struct simd<float> { typedef float vec __attribute__((vector_size(16))); };
template <> struct simd<double> { typedef double vec __attribute__((vector_size(16))); };

template <class T> struct gemm_tiles {
    enum {
        W = 16 / sizeof(T),     // elements per vector
        MR = 2 * W, NR = 4,     // the register block: 8 vector accumulators (x86-64 has 16 registers)
        KC = 256,               // the depth of a packed block: an MR x KC panel of A stays in L1
        MC = 128 * 4 / sizeof(T), NC = 1024,  // an MC x KC block of A in L2, a KC x NC block of B in L3
    };
};

// One MR-row panel of op(A) (rows i0.., columns p0..p0+kc), k-major: dst[p * MR + i]. Rows past m are zero.
template <class T>
static void pack_a_panel(T *dst, const T *A, int lda, bool trans, int i0, int mr, int p0, int kc) {
    const int MR = gemm_tiles<T>::MR;
    if (mr < MR) memset(dst, 0, sizeof(T) * MR * kc);
    if (!trans) {  // op(A)(i, p) = A[i + p lda]: a column's rows are contiguous
        for (int p = 0; p < kc; p++)
            for (int i = 0; i < mr; i++) dst[p * MR + i] = A[(i0 + i) + (size_t)(p0 + p) * lda];
    } else {       // op(A)(i, p) = A[p + i lda]: read along p
        for (int i = 0; i < mr; i++)
            for (int p = 0; p < kc; p++) dst[p * MR + i] = A[(p0 + p) + (size_t)(i0 + i) * lda];
    }
}

// One NR-column panel of op(B) (rows p0..p0+kc, columns j0..), k-major: dst[p * NR + j]. Columns past n are zero.
template <class T>
static void pack_b_panel(T *dst, const T *B, int ldb, bool trans, int p0, int kc, int j0, int nr) {
    const int NR = gemm_tiles<T>::NR;
    if (nr < NR) memset(dst, 0, sizeof(T) * NR * kc);
    if (!trans) {  // op(B)(p, j) = B[p + j ldb]: read along p
        for (int j = 0; j < nr; j++)
            for (int p = 0; p < kc; p++) dst[p * NR + j] = B[(p0 + p) + (size_t)(j0 + j) * ldb];
    } else {       // op(B)(p, j) = B[j + p ldb]: a row's columns are contiguous
        for (int p = 0; p < kc; p++)
            for (int j = 0; j < nr; j++) dst[p * NR + j] = B[(j0 + j) + (size_t)(p0 + p) * ldb];
    }
}

// C's mr x nr block (at most MR x NR) += alpha * (A panel x B panel), over kc.
template <class T>
static void gemm_kernel(int kc, const T *a, const T *b, T alpha, T *c, int ldc, int mr, int nr) {
    typedef typename simd<T>::vec V;
    const int W = gemm_tiles<T>::W, MR = gemm_tiles<T>::MR, NR = gemm_tiles<T>::NR;
    V acc[NR][2] = {};
    for (int p = 0; p < kc; p++, a += MR, b += NR) {
        V a0, a1;
        memcpy(&a0, a, sizeof a0);
        memcpy(&a1, a + W, sizeof a1);
        for (int j = 0; j < NR; j++) {  // unrolled by GCC: NR is a constant
            acc[j][0] += a0 * b[j];
            acc[j][1] += a1 * b[j];
        }
    }
    if (mr == MR && nr == NR) {  // a whole block: update C a vector at a time
        for (int j = 0; j < NR; j++) {
            T *cj = c + (size_t)j * ldc;
            V c0, c1;
            memcpy(&c0, cj, sizeof c0);
            memcpy(&c1, cj + W, sizeof c1);
            c0 += acc[j][0] * alpha;
            c1 += acc[j][1] * alpha;
            memcpy(cj, &c0, sizeof c0);
            memcpy(cj + W, &c1, sizeof c1);
        }
        return;
    }
    T out[NR][MR];
    memcpy(out, acc, sizeof out);
    for (int j = 0; j < nr; j++)
        for (int i = 0; i < mr; i++) c[i + (size_t)j * ldc] += alpha * out[j][i];
}

// C = beta C first (beta 0 clears C, NaNs included, as BLAS does), then the product is added block by block.
template <class T> static void scale_c(int m, int n, T beta, T *C, int ldc) {
    for (int j = 0; j < n; j++) {
        T *c = C + (size_t)j * ldc;
        if (beta == T(0)) memset(c, 0, sizeof(T) * m);
        else if (beta != T(1))
            for (int i = 0; i < m; i++) c[i] *= beta;
    }
}

// The packed blocks of one call: an MC x KC block of A and a KC x NC block of B, panel after panel.
template <class T> struct gemm_buffers {
    T *a, *b;
    gemm_buffers() {
        typedef gemm_tiles<T> t;
        a = (T *)aligned_alloc(64, sizeof(T) * t::MC * t::KC);
        b = (T *)aligned_alloc(64, sizeof(T) * t::KC * t::NC);
    }
    ~gemm_buffers() { free(a); free(b); }
    bool ok() const { return a && b; }
};

// One packed KC x NC block of B against every MC x KC block of A, at (pc, jc).
template <class T>
static void gemm_block(const gemm_buffers<T> &buf, bool ta, int m, int pc, int kc, int jc, int nc, T alpha,
                       const T *A, int lda, T *C, int ldc) {
    typedef gemm_tiles<T> t;
    for (int ic = 0; ic < m; ic += t::MC) {
        int mc = m - ic < t::MC ? m - ic : t::MC;
        for (int ir = 0; ir < mc; ir += t::MR)
            pack_a_panel(buf.a + (size_t)ir * kc, A, lda, ta, ic + ir, mc - ir < t::MR ? mc - ir : t::MR, pc, kc);
        for (int jr = 0; jr < nc; jr += t::NR)
            for (int ir = 0; ir < mc; ir += t::MR)
                gemm_kernel(kc, buf.a + (size_t)ir * kc, buf.b + (size_t)jr * kc, alpha,
                            C + (ic + ir) + (size_t)(jc + jr) * ldc, ldc, mc - ir < t::MR ? mc - ir : t::MR,
                            nc - jr < t::NR ? nc - jr : t::NR);
    }
}

template <class T>
static void gemm(bool ta, bool tb, int m, int n, int k, T alpha, const T *A, int lda, const T *B, int ldb, T beta,
                 T *C, int ldc) {
    typedef gemm_tiles<T> t;
    scale_c(m, n, beta, C, ldc);
    if (alpha == T(0) || k == 0) return;  // BLAS's quick return: A and B are not read
    gemm_buffers<T> buf;
    if (!buf.ok()) abort();  // a few hundred KiB of host memory: nothing sensible is left to do without them
    for (int jc = 0; jc < n; jc += t::NC) {
        int nc = n - jc < t::NC ? n - jc : t::NC;
        for (int pc = 0; pc < k; pc += t::KC) {
            int kc = k - pc < t::KC ? k - pc : t::KC;
            for (int jr = 0; jr < nc; jr += t::NR)
                pack_b_panel(buf.b + (size_t)jr * kc, B, ldb, tb, pc, kc, jc + jr, nc - jr < t::NR ? nc - jr : t::NR);
            gemm_block(buf, ta, m, pc, kc, jc, nc, alpha, A, lda, C, ldc);
        }
    }
}
} // namespace rt
#endif
