// fork: a second process the trace does not follow.
#include <unistd.h>
int main(void)
{
    return fork() < 0; // policy: fork
}
