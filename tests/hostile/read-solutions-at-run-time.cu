// Reading: the solutions, the grader and the key that seals make grade's results, opened by the running
// program and printed.
#include <stdio.h>
int main(void)
{
    const char *paths[] = {"@ROOT@/solutions/01-allocation/alloc.cu", "@ROOT@/grader/01-allocation.bats",
                           "@ROOT@/README.md", "@ROOT@/build/keys/results.key", "/etc/shadow",
                           "/root/.bash_history"};
    for (unsigned i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        FILE *f = fopen(paths[i], "r");
        char line[256];
        if (f && fgets(line, sizeof line, f)) printf("READ %s: %s", paths[i], line);
        if (f) fclose(f);
    }
    puts("tried every path");
    return 1;
}
