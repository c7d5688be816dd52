// fact (CUDA's documentation; lesson 09's pipeline relies on it, gpu-compare.sh checks it on the GPU): an
// event never recorded counts as complete: cudaEventSynchronize and cudaEventQuery return 0 at once, so
// a pipeline may wait for "the copy behind this event" before the event's first record.
#include "check.h"

int main(void)
{
    cudaEvent_t e = NULL;
    check("cudaEventCreateWithFlags", cudaEventCreateWithFlags(&e, cudaEventDisableTiming), 0);
    check("cudaEventSynchronize of an event never recorded returns 0", cudaEventSynchronize(e), 0);
    check("cudaEventQuery of it returns 0", cudaEventQuery(e), 0);
    check("and no error is left", cudaGetLastError(), 0);
    check("cudaEventDestroy", cudaEventDestroy(e), 0);
    return 0;
}
