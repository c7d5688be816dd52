// Replaces stdout by stderr.
#include <unistd.h>
int main(void)
{
    return dup2(2, 1) < 0; // policy: dup2
}
