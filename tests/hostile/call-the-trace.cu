// Appended to lesson 01's solution (tests/hostile.bats): it writes into the trace's record a call that never
// happened, a cudaDeviceSynchronize, through the trace's own functions (the pair that brackets every traced
// call), as a student who read grader/shim/trace.h could. The trace is linked as one object whose only
// global names are its wrappers: with the policy off (ALLOW=all), this must not even link.
extern "C" int tr_begin(void *r, const char *fn, int cls, const char *file, int line, void *ret);
extern "C" int tr_end(void *r, int status);

static void record_a_wait(void)
{
    static char rec[8192] __attribute__((aligned(16))); // more than a struct tr_rec
    if (tr_begin(rec, "cudaDeviceSynchronize", 0, __FILE__, __LINE__, __builtin_return_address(0)))
        tr_end(rec, 0);
    printf("recorded a wait that never happened\n");
}

__attribute__((constructor)) static void call_the_trace(void) { atexit(record_a_wait); }
