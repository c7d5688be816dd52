// fact: Thrust's device pointers stay device pointers: host code dereferencing raw_pointer_cast(v.data()) of a
// device_vector dies with SIGSEGV (exit 139), as on a GPU machine.
// test-status: 139
#include <thrust/device_vector.h>
#include <stdio.h>

int main(void)
{
    thrust::device_vector<int> v(16, 5);
    int *raw = thrust::raw_pointer_cast(v.data());
    printf("v[0] through the device_vector: %d\n", (int)v[0]);
    printf("reading raw_pointer_cast(v.data())[0] on the host\n");
    fflush(stdout);
    volatile int x = raw[0];
    printf("not reached %d\n", x);
    return 0;
}
