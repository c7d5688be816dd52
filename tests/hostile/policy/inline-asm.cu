// Inline assembly: a system call the C library never sees (x86-64: the case is skipped elsewhere).
int main(void)
{
    long ret = 39; // getpid
    asm volatile("syscall" : "+a"(ret) : : "rcx", "r11", "memory"); // policy: asm
    return ret < 0;
}
