/* vector_types.h: CUDA's small vector types (float4, int2, dim3...) with their GPU alignments. */
#ifndef CUDAWB_VECTOR_TYPES_H
#define CUDAWB_VECTOR_TYPES_H

#define CUDAWB_VEC(T, name, a2, a4)                                                                      \
    struct name##1 { T x; };                                                                             \
    struct __attribute__((aligned(a2))) name##2 { T x, y; };                                             \
    struct name##3 { T x, y, z; };                                                                       \
    struct __attribute__((aligned(a4))) name##4 { T x, y, z, w; };                                       \
    typedef struct name##1 name##1;                                                                      \
    typedef struct name##2 name##2;                                                                      \
    typedef struct name##3 name##3;                                                                      \
    typedef struct name##4 name##4;                                                                      \
    static inline name##1 make_##name##1(T x) { name##1 v = {x}; return v; }                             \
    static inline name##2 make_##name##2(T x, T y) { name##2 v = {x, y}; return v; }                     \
    static inline name##3 make_##name##3(T x, T y, T z) { name##3 v = {x, y, z}; return v; }             \
    static inline name##4 make_##name##4(T x, T y, T z, T w) { name##4 v = {x, y, z, w}; return v; }
CUDAWB_VEC(signed char, char, 2, 4)
CUDAWB_VEC(unsigned char, uchar, 2, 4)
CUDAWB_VEC(short, short, 4, 8)
CUDAWB_VEC(unsigned short, ushort, 4, 8)
CUDAWB_VEC(int, int, 8, 16)
CUDAWB_VEC(unsigned int, uint, 8, 16)
CUDAWB_VEC(long, long, 2 * sizeof(long), 16)
CUDAWB_VEC(unsigned long, ulong, 2 * sizeof(long), 16)
CUDAWB_VEC(long long, longlong, 16, 16)
CUDAWB_VEC(unsigned long long, ulonglong, 16, 16)
CUDAWB_VEC(float, float, 8, 16)
CUDAWB_VEC(double, double, 16, 16)
#undef CUDAWB_VEC

struct dim3 {
    unsigned int x, y, z;
#ifdef __cplusplus
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
#endif
};
typedef struct dim3 dim3;
#endif
