// Root inside the sandbox: remount the repository read-write and change the grader.
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
int main(void)
{
    int r = mount("none", "@ROOT@", NULL, MS_REMOUNT | MS_BIND, NULL);
    printf("remount: %d\n", r);
    FILE *f = fopen("@ROOT@/grader/01-allocation.bats", "a");
    if (f) { fputs("\n@test \"step 99: forged (100 points)\" { true; }\n", f); fclose(f); puts("wrote the grader"); }
    f = fopen("@ROOT@/Makefile", "a");
    if (f) { fputs("# pwned\n", f); fclose(f); puts("wrote the Makefile"); }
    return system("touch @ROOT@/@MARK@ 2>/dev/null") == 0 ? 0 : 1;
}
