// Token pasting makes a name the source never spells (here a harmless one).
#include <stdio.h>
#define CAT(a, b) a##b // policy: paste
int main(void)
{
    return CAT(put, s)("pasted") < 0;
}
