// An abort: a failed assert.
#include <assert.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    (void)argv;
    puts("about to abort");
    assert(argc == 42);
    return 0;
}
