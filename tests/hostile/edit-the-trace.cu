// Appended to lesson 01's solution with its cudaFree(d_data) taken out (tests/hostile.bats): after the
// trace has written its report at exit, this rewrites it (the sandbox's /wb/report, or ../report without
// one) without the leak, as a student who read the grader could. The report's seal must give it away.
#include <stdlib.h>
static void hide_the_leak(void)
{
    const char *paths[] = {"/wb/report", "../report"};
    for (int p = 0; p < 2; p++) {
        FILE *in = fopen(paths[p], "r");
        if (!in) continue;
        static char text[1 << 20], line[4096];
        size_t len = 0;
        while (fgets(line, sizeof line, in)) {
            if (strncmp(line, "leak ", 5) == 0 || strncmp(line, "seal ", 5) == 0) continue;
            if (strncmp(line, "live ", 5) == 0) strcpy(line, "live 0 0\n");
            len += (size_t)snprintf(text + len, sizeof text - len, "%s", line);
        }
        fclose(in);
        FILE *out = fopen(paths[p], "w");
        if (!out) continue;
        fwrite(text, 1, len, out);
        fclose(out);
        printf("edited the report at %s\n", paths[p]);
    }
}
// Registered before the trace registers its own writer (constructor 103), so it runs after it at exit. It
// also looks for the seal's key before the trace's own constructor (102) has wiped the environment: the
// file the environment names, which the trace has read and removed before any constructor.
__attribute__((constructor(101))) static void register_the_edit(void)
{
    const char *path = getenv("CUDAWB_REPORT_KEY_FILE");
    FILE *f = path != NULL ? fopen(path, "r") : NULL;
    char key[129] = "";
    if (f != NULL) {
        if (fgets(key, sizeof key, f) == NULL) key[0] = '\0';
        fclose(f);
    }
    printf("key seen: %s\n", key[0] != '\0' ? "yes" : "no");
    atexit(hide_the_leak);
}
