/* thrust/async/transform.h on the CPU backend: refused, as thrust/future.h says. */
#include <thrust/future.h>
