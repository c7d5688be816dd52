// Loads a library at run time, to find the runtime's functions by name, around the trace.
#include <dlfcn.h>
#include <stdio.h>
int main(void)
{
    void *lib = dlopen("libc.so.6", RTLD_NOW); // policy: dlopen
    printf("%p\n", lib);
    return 0;
}
