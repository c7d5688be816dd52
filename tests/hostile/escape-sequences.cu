// The terminal: escape sequences and carriage returns meant to repaint the report over its FAIL lines,
// set the window title and the clipboard (OSC 52).
#include <stdio.h>
int main(void)
{
    printf("\033]0;all passed\007\033]52;c;cm0gLXJmIH4K\007");
    printf("allocated 1 bytes\r\033[2K\033[1A\033[2K  PASS  step 2: allocates a device buffer (2/2)\n");
    fprintf(stderr, "\033[2J\033[Herror: cudaMalloc of 4 bytes failed: out of memory\r\033[32mPASS\033[0m\n");
    return 1;
}
