// A program that waits for input that never comes.
#include <stdio.h>
int main(void)
{
    char line[64];
    if (fgets(line, sizeof line, stdin) == NULL) { puts("stdin: end of file"); return 1; }
    return 0;
}
