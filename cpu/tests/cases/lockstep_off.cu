// kernel feature: the same programs as lockstep.cu with every kernel running its original body, thread by
// thread (CUDAWB_LOCKSTEP=0): the two ways the CPU backend runs a kernel must agree.
// test-env: CUDAWB_LOCKSTEP=0
// test-gpu: skip (CUDAWB_LOCKSTEP is the CPU backend's; lockstep.cu is the GPU's comparison)
#include "lockstep.cu"
