/* cudawb/shared_check.h: what the rewriter (cpu/tools/cudapp.cpp) wraps around each access to a __shared__
   variable in device code, for the two checkers behind bin/compute-sanitizer:
     s[i][j] = v;   ->   (*cudawb::sh(__builtin_addressof(s[i][j]), cudawb::sh_extent(s), SH_WRITE, "f.cu", 12)) = v;
   memcheck (src/checker.cpp) reports an access outside the variable (or outside the launch's dynamic shared
   memory), racecheck (src/racecheck.cpp) records it to find two threads of a block touching the same bytes
   between barriers. With neither checker on, the wrapper is one test of a flag that never changes and the
   same access: the flag is set before main runs (bin/nvcc-cpu cannot know whether the program will run under
   the checker, so the test must be there). */
#ifndef CUDAWB_SHARED_CHECK_H
#define CUDAWB_SHARED_CHECK_H
#include <stddef.h>

namespace cudawb {
enum { SH_READ = 1, SH_WRITE = 2, SH_RMW = 3 /* +=, ++: a read, then a write */, SH_ATOMIC = 4 };
enum { SH_MEMCHECK = 1, SH_RACECHECK = 2 };
extern int shared_checks; /* 0, SH_MEMCHECK or SH_RACECHECK: set once at startup (src/config.cpp) */

struct sh_span {
    const void *base;
    size_t bytes; /* 0: not a variable we can bound (a pointer of the same name); SH_DYNAMIC: the launch's */
};
static const size_t SH_DYNAMIC = ~(size_t)0;
static const size_t SH_POINTER = ~(size_t)1; /* a volatile pointer: whichever shared variable it points into */
void shared_access(const void *p, size_t size, sh_span where, int kind, const char *file, int line);

/* the variable an access must stay inside: an array or scalar declared __shared__ ... */
template <class T, size_t N> static inline sh_span sh_extent(T (&a)[N]) { return sh_span{(const void *)a, sizeof a}; }
template <class T> static inline sh_span sh_extent(T &x) { return sh_span{(const void *)&x, sizeof x}; }
/* ... and never a pointer (a local or parameter that hides the shared variable's name): not checked */
template <class T> static inline sh_span sh_extent(T *&) { return sh_span{0, 0}; }
template <class T> static inline sh_span sh_extent(T *const &) { return sh_span{0, 0}; }
/* extern __shared__ T s[]: s is a pointer to the launch's dynamic shared memory */
template <class T> static inline sh_span sh_dynamic(T *p) { return sh_span{(const void *)p, SH_DYNAMIC}; }

template <class T> struct sh_is_array { enum { value = 0 }; };
template <class T, size_t N> struct sh_is_array<T[N]> { enum { value = 1 }; };

/* a partial subscript of a multi-dimensional array (a row) is no access: only whole elements are checked */
template <class T>
static inline __attribute__((always_inline)) T *sh(T *p, sh_span where, int kind, const char *file, int line) {
    if (__builtin_expect(shared_checks != 0, 0) && !sh_is_array<T>::value && where.bytes)
        shared_access((const void *)p, sizeof(T), where, kind, file, line);
    return p;
}

void race_barrier(void);  /* __syncthreads (src/fiber.cpp) under racecheck: the thread passed a barrier */
void race_syncwarp(void); /* __syncwarp under racecheck: the lane's warp met */
} // namespace cudawb
#endif
