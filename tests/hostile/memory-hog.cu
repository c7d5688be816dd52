// Resources: take 20 GiB of host memory, touching every page.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
    size_t got = 0;
    for (int i = 0; i < 20 * 4; i++) {
        char *p = (char *)malloc((size_t)256 << 20);
        if (!p) break;
        memset(p, 1, (size_t)256 << 20);
        got += 256;
    }
    printf("took %zu MiB\n", got);
    return 0;
}
