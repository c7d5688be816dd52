// fact: What nvcc 13.0 puts in an -arch=sm_80 program, as cuobjdump --list-elf --list-ptx lists it: the file's
// sm_80 code, the device link's sm_80 code (nvcc --dryrun runs nvlink for every program) and the compute_80 PTX.
// The CPU backend's bin/cuobjdump answers from what nvcc-cpu recorded.
// test-flags: -arch=sm_80
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__global__ void set_one(int *p) { p[0] = 1; }

int main(void)
{
    char command[64];
    // this program's own file, named so that the tool's output does not depend on where the test runs
    snprintf(command, sizeof command, "cuobjdump --list-elf --list-ptx /proc/%d/exe", (int)getpid());
    fflush(stdout);
    return system(command) == 0 ? 0 : 1;
}
