/* wrap.h: the macros that turn a line of calls.def or cublas.def into a wrapper (wrappers.c, cublas.c).
 * On the CPU backend every traced call also takes its site (cudawb_site: file and line, filled in by a
 * default argument at the call), which P/A add; on the GPU the site is the return address, which the
 * grader turns into file:line with addr2line. */
#ifndef CUDAWB_WRAP_H
#define CUDAWB_WRAP_H

#define TR_CAT_(a, b) a##b
#define TR_CAT(a, b) TR_CAT_(a, b)
#define TR_STR_(a) #a
#define TR_STR(a) TR_STR_(a)

#ifdef CUDAWB_CPU
#define P(...) (__VA_ARGS__, cudawb_site cudawb_at)
#define A(...) (__VA_ARGS__, cudawb_at)
#define P0 (cudawb_site cudawb_at)
#define A0 (cudawb_at)
#define TR_SITE cudawb_at.file, cudawb_at.line, NULL
#define TR_HERE , cudawb_site()
#define TR_HERE0 cudawb_site()
#else
#define P(...) (__VA_ARGS__)
#define A(...) (__VA_ARGS__)
#define P0 (void)
#define A0 ()
#define TR_SITE NULL, 0, __builtin_return_address(0)
#define TR_HERE
#define TR_HERE0
#endif

#endif
