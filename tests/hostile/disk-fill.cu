// Resources: write gigabytes into the run folder, /tmp and /dev/shm, in many files under the size cap.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
    static char block[1 << 20];
    memset(block, 'x', sizeof block);
    const char *dirs[] = {".", "/tmp", "/dev/shm"};
    char path[256];
    for (unsigned d = 0; d < 3; d++) {
        size_t mib = 0;
        for (int i = 0; i < 4096; i++) {
            snprintf(path, sizeof path, "%s/@MARK@-%d", dirs[d], i);
            FILE *f = fopen(path, "w");
            if (!f) break;
            size_t w = fwrite(block, 1, sizeof block, f);
            if (fclose(f) != 0 || w != sizeof block) break;
            mib++;
        }
        printf("%s: %zu MiB\n", dirs[d], mib);
    }
    return 0;
}
