// A global object whose constructor runs before main (a C++ dynamic initializer).
#include <stdio.h>
#include <stdlib.h>
static int chosen = rand(); // policy: constructor
int main(void)
{
    printf("%d\n", chosen);
    return 0;
}
