// ptrace: watches the process that runs it (the memory checker, say).
#include <sys/ptrace.h>
int main(void)
{
    return ptrace(PTRACE_TRACEME, 0, 0, 0) == -1; // policy: ptrace
}
