// An #include by absolute path: the sandbox shows the grader's files, and their names are known.
#include "/usr/include/stdio.h" // policy: include
int main(void)
{
    return puts("included") < 0;
}
