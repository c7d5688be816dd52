// Root inside the sandbox: remount the repository read-write and change the grader.
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
int main(void)
{
    int r = mount("none", "@ROOT@", NULL, MS_REMOUNT | MS_BIND, NULL);
    printf("remount: %d\n", r);
    // "r+": only a file that is there, the repository's own, not one made where its path is private
    // (a repository under /tmp appears inside the sandbox as folders of its private /tmp).
    FILE *f = fopen("@ROOT@/grader/01-allocation.bats", "r+");
    if (f && fseek(f, 0, SEEK_END) == 0 && fputs("\n@test \"step 99: forged (100 points)\" { true; }\n", f) >= 0) puts("wrote the grader");
    if (f) fclose(f);
    f = fopen("@ROOT@/Makefile", "r+");
    if (f && fseek(f, 0, SEEK_END) == 0 && fputs("# pwned\n", f) >= 0) puts("wrote the Makefile");
    if (f) fclose(f);
    return system("touch @ROOT@/@MARK@ 2>/dev/null") == 0 ? 0 : 1;
}
