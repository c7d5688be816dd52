// The time limit itself: kill every process it can see but itself (the timeout that watches it), then loop.
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
int main(void)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        int pid = atoi(e->d_name);
        if (pid > 0 && pid != getpid()) kill(pid, SIGKILL);
    }
    for (volatile int spin = 1; spin;) {
    }
    return 0;
}
