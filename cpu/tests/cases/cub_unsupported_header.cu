// compile time: including a header of CUB the CPU backend does not emulate (here cub/block/block_load.cuh)
// stops the build with the backend's own message naming it, not inside Debian's CUB.
// test-compile-fails: cub/block/block_load.cuh is not emulated by the CPU backend
// test-gpu: skip (nvcc compiles all of CUB)
#include <cub/block/block_load.cuh>

int main(void) { return 0; }
