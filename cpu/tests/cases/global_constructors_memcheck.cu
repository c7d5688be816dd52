// fact: global_constructors.cu under compute-sanitizer's memcheck with the leak check: the kernels launched
// by a global constructor are checked as any others, and memory freed by global destructors after main (the
// device_vector's, the object's) is not reported as leaked.
// test-sanitizer: --tool memcheck --leak-check full --error-exitcode 86
#include "global_constructors.cu"
