/* check.h: one line per checked fact ("ok - ..." or "not ok - ...: expected X, got Y"), so that the CPU
   backend and a real GPU print the same text when they agree. Shared by every test program here. */
#ifndef CHECK_H
#define CHECK_H
#include <stdio.h>

static inline void check(const char *fact, long long got, long long want)
{
    if (got == want) printf("ok - %s\n", fact);
    else printf("not ok - %s: expected %lld, got %lld\n", fact, want, got);
}

/* CUDA 13.0 reports bad launch configurations as 1; older toolkits as 9 (facts/gpu-facts.md: accept either) */
static inline void check_launch_error(const char *fact, long long got)
{
    check(fact, got == 9 ? 1 : got, 1);
}
#endif
