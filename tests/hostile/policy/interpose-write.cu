// Defines the C library's write(): every write of the program, the trace's report included, comes here.
#include <stddef.h>
#include <sys/types.h>
extern "C" ssize_t write(int fd, const void *buf, size_t n)
{ // policy: write
    (void)fd;
    (void)buf;
    return (ssize_t)n;
}
int main(void)
{
    return 0;
}
