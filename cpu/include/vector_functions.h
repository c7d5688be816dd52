/* vector_functions.h: make_float4 and friends live in vector_types.h on the CPU backend. */
#include "vector_types.h"
