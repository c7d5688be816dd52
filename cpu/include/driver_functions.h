/* driver_functions.h: CUDA's make_cudaPitchedPtr, make_cudaPos and make_cudaExtent (cuda_runtime.h
   includes it, as nvcc 13's does). */
#ifndef CUDAWB_DRIVER_FUNCTIONS_H
#define CUDAWB_DRIVER_FUNCTIONS_H
#include "driver_types.h"

static inline struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) {
    struct cudaPitchedPtr s;
    s.ptr = d;
    s.pitch = p;
    s.xsize = xsz;
    s.ysize = ysz;
    return s;
}
static inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
    struct cudaPos p;
    p.x = x;
    p.y = y;
    p.z = z;
    return p;
}
static inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
    struct cudaExtent e;
    e.width = w;
    e.height = h;
    e.depth = d;
    return e;
}
#endif
