// blas_operand.h: the memory a cuBLAS kernel reads or writes, held against the allocation it starts in.
//
// A matrix operand is cols columns of rows elements, ld elements apart (column-major), so it spans
// (cols - 1) ld + rows elements from its pointer. A leading dimension larger than the buffer's column, or a
// block of rows past the last one, makes that span run past the end of its allocation. The library's kernel
// then does what one of ours does with such an overrun (alloc.cpp, checker.cpp): under the memory checker the
// first byte past the end is reported, compute-sanitizer's way, and the kernel stops with the sticky 719;
// without it an overrun into the allocation's spare page reads and writes there unnoticed (a GPU lets small
// overruns pass), and one further away stops the kernel with the sticky 700. Checked before the kernel runs,
// since this CPU would otherwise die of SIGSEGV at the closed page, in the library's code.
#ifndef CUDAWB_BLAS_OPERAND_H
#define CUDAWB_BLAS_OPERAND_H
#include "internal.h"
#include <initializer_list>

namespace rt {
struct blas_operand {
    const char *p;
    size_t elem;
    bool write;
    size_t span;      // bytes from p the kernel touches
    const alloc *a;   // the allocation p is in, when the span runs past its end; else NULL

    blas_operand(const void *ptr, int rows, int cols, int ld, size_t elem_size, bool writes)
        : p((const char *)ptr), elem(elem_size), write(writes), span(0), a(NULL) {
        if (!ptr || rows <= 0 || cols <= 0) return;
        span = ((size_t)(cols - 1) * (size_t)ld + (size_t)rows) * elem;
        a = find(ptr);  // NULL for memory we do not hold: the kernel's own checks judge it (blas_op)
        if (a && (uintptr_t)p + span <= a->base + a->size) a = NULL;
    }
    // Reports the overrun under the checker; says whether the kernel must stop, and with which error.
    cudaError_t fault() const {
        if (!a) return cudaSuccess;
        if (cfg.memcheck) {
            memcheck_library_overrun((const void *)(a->base + a->size), write, (unsigned)elem, a);
            return cudaErrorLaunchFailure;
        }
        return (uintptr_t)p + span <= a->span_hi ? cudaSuccess : cudaErrorIllegalAddress;
    }
};

// The operands checked in order: true when the kernel must not run (its fault made sticky), every
// overrunning operand reported first under the checker.
inline bool blas_operands_fault(std::initializer_list<const blas_operand *> ops) {
    cudaError_t e = cudaSuccess;
    for (const blas_operand *o : ops) {
        cudaError_t f = o->fault();
        if (!e) e = f;
    }
    if (e) set_sticky(e);
    return e != cudaSuccess;
}
}  // namespace rt
#endif
