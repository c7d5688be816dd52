/* cuda.h: the CPU backend has no driver API; this header only lets runtime-API code that includes it build. */
#ifndef CUDAWB_CUDA_H
#define CUDAWB_CUDA_H
#include "cuda_runtime.h"
#define CUDA_VERSION 13000
#endif
