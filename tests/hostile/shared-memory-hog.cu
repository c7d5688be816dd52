// Resources: take 2 GiB of shared anonymous memory, which RLIMIT_DATA does not count (only private
// writable mappings are data); a cgroup's memory limit does.
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
int main(void)
{
    size_t got = 0, chunk = (size_t)64 << 20;
    for (int i = 0; i < 32; i++) {
        char *p = (char *)mmap(NULL, chunk, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            break;
        memset(p, 1, chunk);
        got += 64;
        printf("took %zu MiB\n", got);
        fflush(stdout);
    }
    return 0;
}
