// The compiler: take the reference solution's code by its absolute path.
#include "@ROOT@/solutions/01-allocation/alloc.cu"
