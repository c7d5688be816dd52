// fact: global_constructors.cu under compute-sanitizer's racecheck: the shared-memory reduction a global
// constructor launches is checked as any other kernel (it has no hazard).
// test-sanitizer: --tool racecheck --error-exitcode 86
#include "global_constructors.cu"
