// Processes that outlive the run: a double-forked, setsid child that sleeps, then tries to write.
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void)
{
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            for (int i = 0; i < 3; i++) close(i);
            sleep(30);
            system("touch @ROOT@/@MARK@; touch /tmp/@MARK@");
            _exit(0);
        }
        _exit(0);
    }
    puts("parent exits at once");
    return 0;
}
