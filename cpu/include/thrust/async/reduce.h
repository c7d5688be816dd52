/* thrust/async/reduce.h on the CPU backend: refused, as thrust/future.h says. */
#include <thrust/future.h>
