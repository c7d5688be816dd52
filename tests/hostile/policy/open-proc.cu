// Reads the command line of the sandbox's first process.
#include <fcntl.h>
#include <unistd.h>
int main(void)
{
    char buf[256];
    int fd = open("/proc/1/cmdline", O_RDONLY); // policy: open
    return fd < 0 || read(fd, buf, sizeof buf) < 0;
}
