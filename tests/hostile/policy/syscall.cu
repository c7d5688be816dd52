// A raw system call, around the C library.
#include <sys/syscall.h>
#include <unistd.h>
int main(void)
{
    return (int)syscall(SYS_getpid) < 0; // policy: syscall
}
