// A flood of output on both streams.
#include <stdio.h>
int main(void)
{
    for (long i = 0; i < 100000000; i++) {
        printf("allocated %ld bytes for %ld floats\n", i, i);
        fprintf(stderr, "error: cudaMalloc of %ld bytes failed: out of memory\n", i);
    }
    return 0;
}
