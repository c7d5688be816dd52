// compile time: a library the CPU backend does not emulate (cooperative groups) is refused at its #include
// with the backend's own message, not "No such file or directory".
// test-compile-fails: cooperative_groups.h:3:2: error: #error "cooperative groups are not emulated by the CPU backend
// test-gpu: skip (nvcc has cooperative groups)
#include <cooperative_groups.h>

int main(void) { return 0; }
