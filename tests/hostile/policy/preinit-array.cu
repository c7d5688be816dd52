// Puts its own entry in .preinit_array, to run before the trace takes its key.
#include <stdio.h>
static void early(void)
{
    puts("before the trace"); // policy: preinit_array
}
__attribute__((section(".preinit_array"), used)) static void (*const run_early)(void) = early; // policy: section
int main(void)
{
    return 0;
}
