// Talking: connect to the outside (a public resolver, and the host's own services).
#include <arpa/inet.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
static int try_connect(const char *ip, int port)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    inet_pton(AF_INET, ip, &a.sin_addr);
    int r = s >= 0 ? connect(s, (struct sockaddr *)&a, sizeof a) : -1;
    if (s >= 0) close(s);
    return r;
}
int main(void)
{
    if (try_connect("1.1.1.1", 53) == 0) puts("CONNECTED to 1.1.1.1");
    if (try_connect("8.8.8.8", 53) == 0) puts("CONNECTED to 8.8.8.8");
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons(53);
    inet_pton(AF_INET, "1.1.1.1", &a.sin_addr);
    if (s >= 0 && sendto(s, "x", 1, 0, (struct sockaddr *)&a, sizeof a) == 1) puts("SENT a datagram");
    puts("tried the network");
    return 1;
}
