// The compiler: read a system secret through #include, so that its lines show in the compile errors.
#include "/etc/shadow"
#include "/etc/passwd"
int main(void) { return 0; }
