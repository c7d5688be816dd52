// Records a cudaFree that never happened by calling the trace's own function (it is in the program).
#include <stddef.h>
extern "C" void tr_free(void *record, const void *ptr, int kind);
int main(void)
{
    tr_free(NULL, NULL, 0); // policy: tr_free
    return 0;
}
