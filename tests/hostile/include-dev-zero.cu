// The compiler: an #include of an endless file makes the compiler ask for gigabytes of memory.
#include "/dev/zero"
int main(void)
{
    return 0;
}
