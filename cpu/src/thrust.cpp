// thrust.cpp: what the Thrust device system (include/cudawb/thrust_device.h) asks of the runtime.
#include "worker.h"

namespace cudawb {
// Thrust's device code (its algorithms, run as kernels, and device_ptr dereferences in the program's kernels)
// reads and writes device memory directly; host code copies with cudaMemcpy.
bool thrust_device_code() {
    return rt::self && rt::self->in_kernel;
}
} // namespace cudawb
