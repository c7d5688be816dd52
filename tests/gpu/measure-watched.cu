// What a program can see of being watched by the memory checker: run plainly and under compute-sanitizer
// (verify-watched.sh), its two outputs are compared line by line. Printed: the names of its environment's
// variables (values left out: a path differs between any two runs), its arguments, its open descriptors
// and where they lead, and the addresses cudaMalloc and malloc hand out, as spacing and alignment.
#include <cuda_runtime.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static unsigned long alignment(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    return a == 0 ? 0 : (unsigned long)(a & (~a + 1));
}

int main(int argc, char **argv)
{
    for (char **e = environ; *e != NULL; e++) printf("env %.*s\n", (int)strcspn(*e, "="), *e);
    for (int i = 1; i < argc; i++) printf("arg %d %s\n", i, argv[i]);
    DIR *d = opendir("/proc/self/fd");
    struct dirent *f;
    while (d != NULL && (f = readdir(d)) != NULL) {
        char path[300], to[300];
        if (f->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "/proc/self/fd/%s", f->d_name);
        ssize_t n = readlink(path, to, sizeof to - 1);
        to[n > 0 ? n : 0] = '\0';
        printf("fd %s %s\n", f->d_name, strncmp(to, "/dev/pts", 8) == 0 ? "(a terminal)" : to);
    }
    if (d != NULL) closedir(d);
    char *dev[4] = {NULL, NULL, NULL, NULL};
    size_t sizes[4] = {100, 100, 4000, 1 << 20};
    for (int i = 0; i < 4; i++) {
        if (cudaMalloc((void **)&dev[i], sizes[i]) != cudaSuccess) return 1;
        printf("cudaMalloc %zu: aligned to %lu%s", sizes[i], alignment(dev[i]) > 4096 ? 4096 : alignment(dev[i]),
               i > 0 ? "" : "\n");
        if (i > 0) printf(", %ld bytes after the previous one\n", (long)(dev[i] - dev[i - 1]));
    }
    char *h1 = (char *)malloc(100), *h2 = (char *)malloc(100);
    printf("malloc 100: %ld bytes after the previous one\n", (long)(h2 - h1));
    printf("parent: %d\n", getppid() == 1 ? 1 : 0);
    char comm[64] = "";
    FILE *c = NULL;
    char cpath[64];
    snprintf(cpath, sizeof cpath, "/proc/%d/comm", (int)getppid());
    if ((c = fopen(cpath, "r")) != NULL) {
        if (fgets(comm, sizeof comm, c) == NULL) comm[0] = '\0';
        fclose(c);
    }
    printf("parent's name: %s", comm[0] != '\0' ? comm : "?\n");
    for (int i = 0; i < 4; i++) cudaFree(dev[i]);
    free(h1);
    free(h2);
    return 0;
}
