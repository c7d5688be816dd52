// The grader's own channels: the run's status file, next to the program or in the run folder, rewritten
// to claim a clean exit, and a shell command planted in it in case the grader sources it.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libgen.h>
int main(void)
{
    char exe[4096] = {0}, path[8192];
    if (readlink("/proc/self/exe", exe, sizeof exe - 1) < 0) return 1;
    const char *dir = dirname(exe);
    const char *names[] = {"status", "../status", "../runs/default/status", "../runs/probe/status", "../../status"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *f = fopen(path, "w");
        if (f) { fprintf(f, "RUN_STATUS=0 RUN_NORMAL=1 RUN_HOW=x; touch @ROOT@/@MARK@\n"); fclose(f); printf("wrote %s\n", path); }
    }
    FILE *f = fopen("status", "w"); /* in its own folder */
    if (f) { fputs("RUN_STATUS=0; touch @ROOT@/@MARK@\n", f); fclose(f); }
    return 3;
}
