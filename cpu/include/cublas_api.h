/* cublas_api.h: see cublas_v2.h (the CPU backend has one cuBLAS header). */
#include "cublas_v2.h"
