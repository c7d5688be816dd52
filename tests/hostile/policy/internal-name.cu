// A name of the CPU backend's internals, which its rewriter also generates: refused where the student spells it.
#include <stdio.h>
static int cudawb_seen = 0; // policy: cudawb_seen
int main(void)
{
    printf("%d\n", cudawb_seen);
    return 0;
}
