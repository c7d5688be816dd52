// Processes: a fork storm (each child forks again), which the process limit must stop.
#include <stdio.h>
#include <unistd.h>
int main(void)
{
    int made = 0;
    for (int i = 0; i < 100000; i++) {
        pid_t p = fork();
        if (p < 0) break;
        if (p == 0) { sleep(20); _exit(0); }
        made++;
    }
    printf("forked %d\n", made);
    return 0;
}
