/* trace.c: the state behind the trace (trace.h) and the report written at exit (grader/README.md).
 * One implementation for both backends: the GPU shim compiles it as C, the CPU backend as C++. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "seal.h"
#include "trace.h"

#define MAX_RECORDS 5000 /* records written one by one; past this only a site's first call, and a failed one */
#define MAX_SITES 2048   /* call sites remembered, so that each one's first call is always written */
#define MAX_FNS 128

extern char **environ;

struct tracked {
    uintptr_t base;
    size_t bytes;
    unsigned long id;
    enum tr_kind kind;
    int live;
    char site[64];
    const char *fn;
};
struct handle {
    const void *h;
    unsigned long id;
    int live;
};
struct fn_count {
    const char *fn;
    unsigned long count;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int depth; /* >0 while a traced call runs on this thread */
/* The traced call this thread is in, if any: a signal that comes during it (an abort inside cublasDestroy, a
   crash inside a copy) is recorded at its site, with its name and the arguments known before it ran. */
static __thread struct tr_rec *in_flight;

/* settings, read once before main and then removed from the environment */
static char *report_path;
/* The run's key for the report's seal (seal.h), kept where the program's own code cannot read it: a page
   of its own that refuses every access (PROT_NONE) but while the seal is computed at the end, then wiped
   and unmapped. NULL: no key, no seal. */
static unsigned char *key_page;
static size_t key_len, key_page_size;
/* The variables a memory checker adds to the program's environment (compute-sanitizer 2025.x on the H200:
   tests/gpu/README.md, 2026-12-05), which a plain run does not have: copied here, each "NAME=value", and
   removed from the environment before main, so that getenv cannot tell a watched run from a plain one. The
   checker's own code reads them inside CUDA calls: they are put back while a traced call runs (an
   environment array holding them too is swapped in) and taken out when it returns. The copies sit in a page
   that refuses every access (PROT_NONE) the rest of the time, so that a scan of the program's memory does
   not find them either.
   PWD, which the checker sets and the grader does not, is removed for good. */
static const char *const watched_prefixes[] = {"NV_SANITIZER_", "NVTX_INJECTION", "NVIDIA_PROCESS_INJECTION",
                                               "NVIDIA-PROCESS-TRACKING", "PWD="};
static char *watched_page;
static size_t watched_page_size;
static char *watched_vars[32];
static size_t nwatched;
static int watched_shown; /* >0 while traced calls run (any thread) */
static size_t watched_used; /* bytes of watched_page the copies take */
static unsigned long fail_call, fail_nth, fail_alloc, fail_site_nth;
static char fail_site[64];
static int fail_cublas_create, no_kernel_args;
static long leave_free_mb = -1; /* CUDAWB_CUBLAS_LEAVE_FREE_MB, or -1 */
/* CUDAWB_FAIL_DEVICE=35|100: the machine has no driver (35) or no device (100): every call fails with it from
   the first (cudaRuntimeGetVersion and cudaDriverGetVersion answer, as the manual says they do; with 35 the
   driver's version is 0). CUDAWB_DEVICE_SMS=N, CUDAWB_DEVICE_MEMORY=BYTES: the device answers N SMs and
   BYTES of memory, so that a number typed into a device query shows (lesson 00). */
static int fail_device, device_sms;
static size_t device_memory;
static size_t device_budget; /* CUDAWB_DEVICE_BUDGET=BYTES: the most device memory the program may hold */
static int budget_set;

/* what the records need */
static unsigned long seq, failable_calls, alloc_calls, site_hits, invalid_frees, dropped;
static size_t live_device, peak_device; /* device and managed bytes live now, and the most live at once (the
                                           peak line): what CUDAWB_DEVICE_BUDGET counts */
static long live_handles;
static struct tracked *allocs;
static size_t nallocs, cap_allocs;
static struct handle *streams, *events, *pools;
static size_t nstreams, nevents, npools, cap_streams, cap_events, cap_pools;
static unsigned long stream_ids, event_ids, pool_ids;
static cudaError_t sticky;       /* the emulated sticky error after an injected SYNC failure, or 0 */
static cudaError_t pending_last; /* what the emulated cudaGetLastError returns next */
static cudaError_t seen_sticky;  /* the first sticky error any call returned, emulated or real */
static int sticky_injected;
static char *sites[MAX_SITES];
static size_t nsites;
static struct fn_count fns[MAX_FNS];
static size_t nfns;

/* the records, kept in memory until exit */
static FILE *log_file;
static char *log_buf;
static size_t log_len, records;
static char last_body[TR_FIELDS + 256];
static unsigned long again_count, again_last;
static long long again_gap; /* the repeats' gap= summed, or -1 when none of them had one */

/* gap=US: the time a thread spent outside traced calls since its previous one returned (its own code:
   what a timed span holds beside the calls it times), on the trace's clock, which the program cannot set:
   from the end of tr_end to the start of the next tr_begin, so that the trace's own cost is not counted.
   CLOCK_MONOTONIC through the vDSO, two reads a call, ~30 ns each. */
static __thread long long thread_left_ns = -1; /* when this thread's last traced call returned */

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int tr_setting_fail_cublas_create(void) { return fail_cublas_create; }
long tr_setting_leave_free_mb(void) { return leave_free_mb; }
int tr_setting_no_kernel_args(void) { return no_kernel_args; }

/* --- the environment ------------------------------------------------------------------------------ */

static unsigned long env_ulong(const char *value) { return value != NULL ? strtoul(value, NULL, 10) : 0; }

/* The report's key is taken before any constructor runs, the student's own included: from .preinit_array.
   It is never in a command line or the environment: CUDAWB_REPORT_KEY_FILE names a file in the program's
   own scratch folder (grader/lib/grading.bash), read here and removed at once, so that no later code can
   open it. The copy on this function's stack is wiped; the key lives on in key_page only. The environment
   comes as the third argument: getenv may not work yet this early. */
static void tr_take_key(int argc, char **argv, char **envp)
{
    static const char name[] = "CUDAWB_REPORT_KEY_FILE=";
    char buf[129];
    const char *path = NULL;
    ssize_t n = -1;
    int fd;
    char **e;
    (void)argc;
    (void)argv;
    for (e = envp; e != NULL && *e != NULL; e++)
        if (strncmp(*e, name, sizeof name - 1) == 0)
            path = *e + sizeof name - 1;
    if (path == NULL || *path == '\0')
        return;
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd >= 0) {
        n = read(fd, buf, sizeof buf - 1);
        close(fd);
    }
    unlink(path);
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        n--;
    if (n > 0) {
        key_page_size = (size_t)sysconf(_SC_PAGESIZE);
        key_page = (unsigned char *)mmap(NULL, key_page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (key_page == MAP_FAILED) {
            key_page = NULL;
        } else {
            memcpy(key_page, buf, (size_t)n);
            key_len = (size_t)n;
            madvise(key_page, key_page_size, MADV_DONTDUMP);
            mprotect(key_page, key_page_size, PROT_NONE);
        }
    }
    explicit_bzero(buf, sizeof buf);
}
__attribute__((section(".preinit_array"), used)) static void (*const tr_take_key_early)(int, char **, char **) =
    tr_take_key;

/* The seal of TEXT (seal.h) into HEX, with the key, which is then wiped and unmapped: one seal per run.
   0: there was no key (the report is then unsealed, and the grader believes none of it). */
static int seal_with_key(const char *text, size_t text_len, char hex[65])
{
    struct seal_sha256 sha;
    if (key_page == NULL || mprotect(key_page, key_page_size, PROT_READ | PROT_WRITE) != 0)
        return 0;
    seal_init(&sha);
    seal_update(&sha, key_page, key_len);
    seal_update(&sha, text, text_len);
    seal_update(&sha, key_page, key_len);
    seal_final_hex(&sha, hex);
    explicit_bzero(key_page, key_page_size);
    explicit_bzero(&sha, sizeof sha);
    munmap(key_page, key_page_size);
    key_page = NULL;
    key_len = 0;
    return 1;
}

/* unset_entry ENTRY: removes the variable that ENTRY ("NAME=value", from environ or a copy) names. */
static void unset_entry(const char *entry)
{
    char name[256];
    size_t n = strcspn(entry, "=");
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, entry, n);
    name[n] = '\0';
    unsetenv(name);
}

/* unset_blanked ENTRY: removes ENTRY's variable and blanks its text in place (unsetenv keeps the text, and
   /proc/self/environ would show it). */
static void unset_blanked(char *entry)
{
    unset_entry(entry);
    memset(entry, 0, strlen(entry));
}

static int is_grader_var(const char *v) { return strncmp(v, "CUDAWB_", 7) == 0; }
static int is_watched_var(const char *v)
{
    size_t i;
    for (i = 0; i < sizeof watched_prefixes / sizeof watched_prefixes[0]; i++)
        if (strncmp(v, watched_prefixes[i], strlen(watched_prefixes[i])) == 0)
            return 1;
    return 0;
}

/* The first entry of the environment that MATCH accepts, or NULL. */
static char *first_env(int (*match)(const char *))
{
    char **e;
    for (e = environ; e != NULL && *e != NULL; e++)
        if (match(*e))
            return *e;
    return NULL;
}

/* Copies the checker's variables into watched_page (PROT_NONE afterwards) and removes them all. */
static void hide_watched_vars(void)
{
    char *found;
    size_t used = 0, n;
    while ((found = first_env(is_watched_var)) != NULL) {
        n = strlen(found) + 1;
        if (strncmp(found, "PWD=", 4) != 0 && nwatched < sizeof watched_vars / sizeof watched_vars[0]) {
            if (watched_page == NULL) {
                watched_page_size = 4 * (size_t)sysconf(_SC_PAGESIZE);
                watched_page = (char *)mmap(NULL, watched_page_size, PROT_READ | PROT_WRITE,
                                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (watched_page == MAP_FAILED)
                    watched_page = NULL;
            }
            if (watched_page != NULL && used + n <= watched_page_size) {
                memcpy(watched_page + used, found, n);
                watched_vars[nwatched++] = watched_page + used;
                used += n;
            }
        }
        unset_blanked(found);
    }
    watched_used = used;
    if (watched_page != NULL)
        mprotect(watched_page, watched_page_size, PROT_NONE);
}

/* show_watched_vars at the start of a traced call, hide_watched_vars_again at its end: nothing to do but
   under a memory checker. The environment shown is an array of its own in watched_page (the plain one's
   entries, then the checker's), swapped in and out through environ: putenv and unsetenv would grow and free
   the environment's array on the program's heap at every call, and a program would find the holes they left
   where its own malloc puts things (seen with glibc 2.39). Where it does not fit, putenv after all. */
static char **plain_environ, **watched_environ;
static void show_watched_vars(void)
{
    size_t i, n = 0;
    char **e;
    if (nwatched == 0)
        return;
    pthread_mutex_lock(&lock);
    if (watched_shown++ == 0) {
        mprotect(watched_page, watched_page_size, PROT_READ | PROT_WRITE);
        for (e = environ; e != NULL && *e != NULL; e++)
            n++;
        watched_environ = (char **)(watched_page + (watched_used + sizeof(char *) - 1) / sizeof(char *) *
                                                       sizeof(char *));
        if ((char *)(watched_environ + n + nwatched + 1) <= watched_page + watched_page_size) {
            plain_environ = environ;
            for (i = 0; i < n; i++)
                watched_environ[i] = environ[i];
            for (i = 0; i < nwatched; i++)
                watched_environ[n + i] = watched_vars[i];
            watched_environ[n + nwatched] = NULL;
            environ = watched_environ;
        } else {
            watched_environ = NULL;
            for (i = 0; i < nwatched; i++)
                putenv(watched_vars[i]);
        }
    }
    pthread_mutex_unlock(&lock);
}
static void hide_watched_vars_again(void)
{
    size_t i;
    if (nwatched == 0)
        return;
    pthread_mutex_lock(&lock);
    if (--watched_shown == 0) {
        if (watched_environ != NULL && environ == watched_environ)
            environ = plain_environ;
        else /* putenv showed them, or the checker's code replaced the array meanwhile */
            for (i = 0; i < nwatched; i++)
                unset_entry(watched_vars[i]);
        watched_environ = NULL;
        mprotect(watched_page, watched_page_size, PROT_NONE);
    }
    pthread_mutex_unlock(&lock);
}

/* Reads the grader's CUDAWB_ variables, then removes every CUDAWB_ variable from the environment and
   blanks its text in place, so that neither getenv nor /proc/self/environ shows the program it is graded.
   The CPU backend's runtime reads its own settings first (constructor priority 101). */
__attribute__((constructor(102))) static void tr_start(void)
{
    const char *v;
    char *cut, *found;

    v = getenv("CUDAWB_REPORT");
    if (v != NULL && *v != '\0')
        report_path = strdup(v);
    fail_call = env_ulong(getenv("CUDAWB_FAIL_CALL"));
    fail_nth = env_ulong(getenv("CUDAWB_FAIL_NTH"));
    fail_alloc = env_ulong(getenv("CUDAWB_FAIL_ALLOC"));
    fail_cublas_create = (int)env_ulong(getenv("CUDAWB_FAIL_CUBLAS_CREATE"));
    no_kernel_args = (int)env_ulong(getenv("CUDAWB_NO_KERNEL_ARGS"));
    v = getenv("CUDAWB_CUBLAS_LEAVE_FREE_MB");
    if (v != NULL && *v != '\0')
        leave_free_mb = (long)env_ulong(v);
    fail_device = (int)env_ulong(getenv("CUDAWB_FAIL_DEVICE"));
    tr_prov_setting(getenv("CUDAWB_PROVENANCE"));
    device_sms = (int)env_ulong(getenv("CUDAWB_DEVICE_SMS"));
    v = getenv("CUDAWB_DEVICE_MEMORY");
    device_memory = v != NULL ? (size_t)strtoull(v, NULL, 10) : 0;
    v = getenv("CUDAWB_DEVICE_BUDGET");
    if (v != NULL && *v != '\0') {
        device_budget = (size_t)strtoull(v, NULL, 10);
        budget_set = 1;
    }
    v = getenv("CUDAWB_FAIL_SITE");
    if (v != NULL && *v != '\0') {
        snprintf(fail_site, sizeof fail_site, "%s", v);
        cut = strrchr(fail_site, '#'); /* SITE#K: the K-th call made there (default: the first) */
        fail_site_nth = 1;
        if (cut != NULL) {
            *cut = '\0';
            fail_site_nth = env_ulong(cut + 1);
        }
    }
    while ((found = first_env(is_grader_var)) != NULL)
        unset_blanked(found);
    hide_watched_vars();
    log_file = open_memstream(&log_buf, &log_len);
}

/* --- formatting --------------------------------------------------------------------------------- */

static void add(struct tr_rec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct tr_rec *r, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (r->len >= sizeof r->fields - 1)
        return;
    va_start(ap, fmt);
    n = vsnprintf(r->fields + r->len, sizeof r->fields - r->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        r->len += (size_t)n < sizeof r->fields - r->len ? (size_t)n : sizeof r->fields - 1 - r->len;
}

static const char *kind_prefix(enum tr_kind k)
{
    return k == TR_PINNED ? "pinned" : k == TR_MANAGED ? "managed" : k == TR_REGISTERED ? "registered" : "alloc";
}

/* The live allocation that holds p, or NULL. */
static struct tracked *live_holder(uintptr_t p)
{
    size_t i;
    for (i = nallocs; i-- > 0;)
        if (allocs[i].live && p >= allocs[i].base && p < allocs[i].base + allocs[i].bytes)
            return &allocs[i];
    return NULL;
}

/* The allocation that holds p: a live one first, then (newest first) one already freed. Addresses up to
   64 KiB past the end of a live allocation name it too, with an offset past its size. */
static struct tracked *holder(uintptr_t p)
{
    size_t i;
    struct tracked *a = live_holder(p);
    if (a != NULL)
        return a;
    for (i = nallocs; i-- > 0;)
        if (!allocs[i].live && p >= allocs[i].base && p < allocs[i].base + allocs[i].bytes)
            return &allocs[i];
    for (i = nallocs; i-- > 0;)
        if (allocs[i].live && p >= allocs[i].base && p < allocs[i].base + allocs[i].bytes + 65536)
            return &allocs[i];
    return NULL;
}

int tr_alloc_at(const void *p, uintptr_t *base, size_t *bytes)
{
    struct tracked *a;
    int kind = 0;
    pthread_mutex_lock(&lock);
    a = live_holder((uintptr_t)p);
    if (a != NULL) {
        kind = (int)a->kind;
        if (base != NULL)
            *base = a->base;
        if (bytes != NULL)
            *bytes = a->bytes;
    }
    pthread_mutex_unlock(&lock);
    return kind;
}

/* "null", "alloc#3", "alloc#3+400", "pinned#5", "managed#2+8", "freed#3", or "host". */
static void name_ptr(char *out, size_t size, uintptr_t p, int host_if_unknown)
{
    struct tracked *a;
    if (p == 0) {
        snprintf(out, size, "null");
        return;
    }
    a = holder(p);
    if (a == NULL) {
        if (host_if_unknown)
            snprintf(out, size, "host");
        else
            snprintf(out, size, "%lu", (unsigned long)p);
        return;
    }
    if (p == a->base)
        snprintf(out, size, "%s#%lu", a->live ? kind_prefix(a->kind) : "freed", a->id);
    else
        snprintf(out, size, "%s#%lu+%lu", a->live ? kind_prefix(a->kind) : "freed", a->id, (unsigned long)(p - a->base));
}

static const char *class_name(enum tr_class c)
{
    static const char *names[] = {"alloc", "create", "op", "sync", "free", "destroy", "error", "query"};
    return names[c];
}

/* --- the record's life ---------------------------------------------------------------------------- */

/* A call site comes from the program's own debug information or __FILE__, which a #line directive sets to
   any text: a newline there would start a record of the student's choosing, a space a field. Every byte
   below '!' and DEL is written '?', so that a site is one field of one record whatever the file name. */
static void site_clean(char *site)
{
    for (; *site != '\0'; site++)
        if ((unsigned char)*site <= ' ' || *site == 0x7f)
            *site = '?';
}

static void site_of(struct tr_rec *r, const char *file, int line, void *ret)
{
    Dl_info info;
    const char *slash;
    if (file != NULL) {
        slash = strrchr(file, '/');
        snprintf(r->site, sizeof r->site, "%s:%d", slash != NULL ? slash + 1 : file, line);
    } else if (ret != NULL && dladdr(ret, &info) != 0 && info.dli_fbase != NULL) {
        /* an offset into the executable, for addr2line; -1: inside the call instruction */
        snprintf(r->site, sizeof r->site, "+0x%lx", (unsigned long)((uintptr_t)ret - (uintptr_t)info.dli_fbase - 1));
    } else {
        snprintf(r->site, sizeof r->site, "?");
    }
    site_clean(r->site);
}

/* 1 the first time a site is seen (its first call is always written, also past MAX_RECORDS). */
static int new_site(const char *site)
{
    size_t i;
    for (i = 0; i < nsites; i++)
        if (strcmp(sites[i], site) == 0)
            return 0;
    if (nsites < MAX_SITES)
        sites[nsites++] = strdup(site);
    return 1;
}

static void count_fn(const char *fn)
{
    size_t i;
    for (i = 0; i < nfns; i++)
        if (fns[i].fn == fn || strcmp(fns[i].fn, fn) == 0) {
            fns[i].count++;
            return;
        }
    if (nfns < MAX_FNS) {
        fns[nfns].fn = fn;
        fns[nfns++].count = 1;
    }
}

int tr_begin(struct tr_rec *r, const char *fn, enum tr_class cls, const char *file, int line, void *ret)
{
    long long entered;
    /* A call made while a traced one runs on this thread (a library's own use of the runtime) is the outer
       call's work: not recorded, and depth untouched, since no tr_end follows it. */
    if (depth > 0)
        return 0;
    depth++;
    entered = now_ns();
    memset(r, 0, sizeof *r);
    r->gap_us = thread_left_ns < 0 ? -1 : (entered - thread_left_ns) / 1000;
    /* every launch entry point is recorded under the name programs know */
    r->fn = strcmp(fn, "cudawbLaunchKernel") == 0 || strcmp(fn, "__cudaLaunchKernel") == 0 ? "cudaLaunchKernel" : fn;
    r->cls = cls;
    site_of(r, file, line, ret);
    /* printed=BYTES: how much the program had printed on stdout before this call (flushed first), so
       that the grader can tell which calls came before a printed line: a probe's answer comes from the
       last such call. Only when stdout is a file, as in a graded run. */
    fflush(stdout);
    r->printed = lseek(STDOUT_FILENO, 0, SEEK_CUR);
    pthread_mutex_lock(&lock);
    seq++;
    if (cls == TR_ALLOC) {
        r->alloc_no = ++alloc_calls;
        r->fail |= r->alloc_no == fail_alloc;
    }
    r->fail |= seq == fail_call;
    if (cls == TR_ALLOC || cls == TR_CREATE || cls == TR_OP || cls == TR_SYNC) {
        r->nth = ++failable_calls;
        r->fail |= r->nth == fail_nth;
    }
    if (fail_site[0] != '\0' && strcmp(fail_site, r->site) == 0)
        r->fail |= ++site_hits == fail_site_nth;
    /* after an injected sticky error every call fails with it, as after a real one; the error state
       reports it once, like cudaGetLastError after a real 700 */
    if (sticky != cudaSuccess && cls != TR_ERROR)
        r->fail = r->sticky = 1;
    if (cls == TR_ERROR && pending_last != cudaSuccess)
        r->fail = r->sticky = 1;
    /* no driver or no device: every call fails with it, the error-state reads too */
    if (fail_device != 0 && strstr(fn, "GetVersion") == NULL)
        r->fail = r->sticky = r->injected = 1;
    pthread_mutex_unlock(&lock);
    show_watched_vars();
    in_flight = r;
    return 1;
}

cudaError_t tr_injected(struct tr_rec *r)
{
    cudaError_t e;
    if (r->sticky) {
        if (fail_device != 0)
            return (cudaError_t)fail_device;
        if (r->cls != TR_ERROR)
            return sticky;
        e = pending_last;
        if (strcmp(r->fn, "cudaGetLastError") == 0)
            pending_last = cudaSuccess;
        return e;
    }
    r->injected = 1;
    switch (r->cls) {
    case TR_ALLOC:
        if (r->out != NULL)
            *r->out = NULL;
        return tr_real_out_of_memory();
    case TR_CREATE:
        return tr_real_out_of_memory();
    case TR_SYNC:
        /* a kernel fault's error: the context is not really lost, but every later call says it is */
        pthread_mutex_lock(&lock);
        sticky = pending_last = cudaErrorIllegalAddress;
        sticky_injected = 1;
        pthread_mutex_unlock(&lock);
        return cudaErrorIllegalAddress;
    default:
        return tr_real_invalid_value();
    }
}

static int is_sticky_code(cudaError_t e)
{
    return e == cudaErrorIllegalAddress || e == cudaErrorAssert || (e >= 714 && e <= 719);
}

/* stack=+0xA,+0xB,...: the return addresses above the wrapper that lie in the executable, as offsets for
   addr2line, so that the grader can name the line of the student's file that led to the call even when it
   went through a provided helper or nvcc's launch stub. Taken only for records written in full. */
/* The address ranges of the object the trace is linked into (the program): found once, so that telling the
   program's frames from the libraries' costs a comparison each, not a dladdr (which searched symbol tables
   and made the trace cost ~25 us per recorded call on the CPU backend, 4 us without it; a pipeline that
   queues 1,300 calls measured 1.7x its speed-up untraced as 5-7x on the H200). */
#define MAX_RANGES 16
static uintptr_t self_base, self_lo[MAX_RANGES], self_hi[MAX_RANGES];
static int self_ranges = -1;

static int find_self(struct dl_phdr_info *info, size_t size, void *data)
{
    uintptr_t me = (uintptr_t)data, lo, hi;
    int i, n = 0, mine = 0;
    (void)size;
    for (i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type != PT_LOAD)
            continue;
        lo = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
        hi = lo + info->dlpi_phdr[i].p_memsz;
        mine |= me >= lo && me < hi;
        if (n < MAX_RANGES) {
            self_lo[n] = lo;
            self_hi[n] = hi;
            n++;
        }
    }
    if (!mine)
        return 0;
    self_ranges = n;
    return 1;
}

static int in_self(uintptr_t a)
{
    int i;
    for (i = 0; i < self_ranges; i++)
        if (a >= self_lo[i] && a < self_hi[i])
            return 1;
    return 0;
}

/* " stack=+0xA,+0xB": the program's own return addresses on the stack, as offsets for addr2line, found once
   per recorded call (under the lock). */
__attribute__((noinline)) static void stack_field(char *out, size_t size)
{
    void *frames[12];
    Dl_info self;
    int n, i;
    size_t len = 0;
    out[0] = '\0';
    if (self_ranges < 0) {
        if (dladdr((void *)stack_field, &self) == 0 || dl_iterate_phdr(find_self, (void *)stack_field) == 0) {
            self_ranges = 0;
            return;
        }
        self_base = (uintptr_t)self.dli_fbase;
    }
    n = backtrace(frames, 12);
    for (i = 3; i < n && len + 24 < size; i++) { /* 0: this function, 1: tr_end, 2: the wrapper */
        if (!in_self((uintptr_t)frames[i]))
            continue;
        len += (size_t)snprintf(out + len, size - len, "%s+0x%lx", len ? "," : " stack=",
                                (unsigned long)((uintptr_t)frames[i] - self_base - 1));
    }
}

static void flush_again(void)
{
    if (again_count > 0 && log_file != NULL) {
        if (again_gap >= 0)
            fprintf(log_file, "again count=%lu last=%lu gap=%lld\n", again_count, again_last, again_gap);
        else
            fprintf(log_file, "again count=%lu last=%lu\n", again_count, again_last);
    }
    again_count = 0;
}

__attribute__((noinline)) cudaError_t tr_end(struct tr_rec *r, cudaError_t status)
{
    char body[sizeof last_body];
    int first;
    hide_watched_vars_again();
    in_flight = NULL;
    depth--;
    pthread_mutex_lock(&lock);
    if (seen_sticky == cudaSuccess && is_sticky_code(status))
        seen_sticky = status;
    count_fn(r->fn);
    char printed[64] = "";
    if (r->printed >= 0)
        snprintf(printed, sizeof printed, " printed=%ld", r->printed);
    if (r->nth > 0) /* outside the body, as n= is: a repeat of the call is still the same record */
        snprintf(printed + strlen(printed), sizeof printed - strlen(printed), " nth=%lu", r->nth);
    /* the body without printed=: the same call again is the same record, whatever was printed between */
    snprintf(body, sizeof body, "fn=%s class=%s status=%d site=%s%s%s%s%s", r->fn, class_name(r->cls), (int)status,
             r->site, r->len > 0 ? " " : "", r->fields, r->injected ? " injected=1" : "", r->sticky ? " sticky=1" : "");
    if (report_path != NULL && log_file != NULL) {
        if (strcmp(body, last_body) == 0) { /* the same call again, from the same place: count it */
            if (again_count++ == 0)
                again_gap = -1;
            if (r->gap_us >= 0)
                again_gap = (again_gap < 0 ? 0 : again_gap) + r->gap_us;
            again_last = seq;
        } else {
            flush_again();
            first = new_site(r->site);
            if (records < MAX_RECORDS || first || r->injected) {
                char stack[256], gap[32] = "";
                stack_field(stack, sizeof stack);
                if (r->gap_us >= 0)
                    snprintf(gap, sizeof gap, " gap=%lld", r->gap_us);
                fprintf(log_file, "call n=%lu %s%s%s%s\n", seq, body, printed, stack, gap);
                records++;
                snprintf(last_body, sizeof last_body, "%s", body);
            } else {
                dropped++;
                last_body[0] = '\0';
            }
        }
    }
    pthread_mutex_unlock(&lock);
    thread_left_ns = now_ns();
    return status;
}

/* --- argument fields ------------------------------------------------------------------------------ */

void tr_ptr(struct tr_rec *r, const char *key, const void *p)
{
    char name[64];
    pthread_mutex_lock(&lock);
    name_ptr(name, sizeof name, (uintptr_t)p, 1);
    pthread_mutex_unlock(&lock);
    add(r, "%s%s=%s", r->len ? " " : "", key, name);
}

void tr_size(struct tr_rec *r, const char *key, size_t n) { add(r, "%s%s=%lu", r->len ? " " : "", key, (unsigned long)n); }
void tr_uint(struct tr_rec *r, const char *key, unsigned int v) { add(r, "%s%s=%u", r->len ? " " : "", key, v); }
void tr_int(struct tr_rec *r, const char *key, int v) { add(r, "%s%s=%d", r->len ? " " : "", key, v); }
void tr_text(struct tr_rec *r, const char *key, const char *v) { add(r, "%s%s=%s", r->len ? " " : "", key, v); }

/* Where a prefetch sends memory or an advice applies: "device:0", "host", "hostnuma:1", else "type:id". */
void tr_location(struct tr_rec *r, const char *key, struct cudaMemLocation loc)
{
    const char *sep = r->len ? " " : "";
    if (loc.type == cudaMemLocationTypeDevice)
        add(r, "%s%s=device:%d", sep, key, loc.id);
    else if (loc.type == cudaMemLocationTypeHost)
        add(r, "%s%s=host", sep, key);
    else if (loc.type == cudaMemLocationTypeHostNuma)
        add(r, "%s%s=hostnuma:%d", sep, key, loc.id);
    else
        add(r, "%s%s=%d:%d", sep, key, (int)loc.type, loc.id);
}

/* cudaMemAdvise's advice by its name without the cudaMemAdviseSet prefix ("ReadMostly", "UnsetReadMostly"). */
void tr_advice(struct tr_rec *r, int advice)
{
    static const char *const names[] = {"", "ReadMostly", "UnsetReadMostly", "PreferredLocation",
                                        "UnsetPreferredLocation", "AccessedBy", "UnsetAccessedBy"};
    if (advice >= 1 && advice <= 6)
        add(r, "%sadvice=%s", r->len ? " " : "", names[advice]);
    else
        add(r, "%sadvice=%d", r->len ? " " : "", advice);
}

/* What cudaPointerGetAttributes answered: the memory's type, and its device. */
void tr_attributes(struct tr_rec *r, const struct cudaPointerAttributes *a)
{
    static const char *const types[] = {"unregistered", "host", "device", "managed"};
    if (r->status != 0 || a == NULL)
        return;
    if ((int)a->type >= 0 && (int)a->type <= 3)
        add(r, "%stype=%s device=%d", r->len ? " " : "", types[a->type], a->device);
    else
        add(r, "%stype=%d device=%d", r->len ? " " : "", (int)a->type, a->device);
}

void tr_out(struct tr_rec *r, void **out)
{
    r->out = out;
    if (out == NULL)
        add(r, "%sout=null", r->len ? " " : "");
}

static void kind_field(struct tr_rec *r, enum cudaMemcpyKind kind)
{
    static const char *names[] = {"HostToHost", "HostToDevice", "DeviceToHost", "DeviceToDevice", "Default"};
    if ((int)kind >= 0 && (int)kind <= 4)
        add(r, " kind=%s", names[kind]);
    else
        add(r, " kind=%d", (int)kind);
}

void tr_copy(struct tr_rec *r, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    tr_ptr(r, "dst", dst);
    tr_ptr(r, "src", src);
    tr_size(r, "bytes", count);
    kind_field(r, kind);
}

void tr_copy2d(struct tr_rec *r, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
               enum cudaMemcpyKind kind)
{
    tr_ptr(r, "dst", dst);
    tr_size(r, "dpitch", dpitch);
    tr_ptr(r, "src", src);
    tr_size(r, "spitch", spitch);
    tr_size(r, "width", width);
    tr_size(r, "height", height);
    kind_field(r, kind);
}

/* width=W height=H depth=D: a 3-D extent (width in bytes for linear memory). */
void tr_extent(struct tr_rec *r, struct cudaExtent extent)
{
    tr_size(r, "width", extent.width);
    tr_size(r, "height", extent.height);
    tr_size(r, "depth", extent.depth);
}

/* One side of a 3-D copy: the pointer where the position starts (z slices of pitch x ysize bytes, y rows, x
   bytes), named like any pointer, then its pitch and its slices' height; "array" for a CUDA array. */
static void pitched_side(struct tr_rec *r, const char *key, const char *pitch_key, const char *ysize_key,
                         const void *array, struct cudaPitchedPtr p, struct cudaPos pos)
{
    const char *at = (const char *)p.ptr;
    if (array != NULL) {
        add(r, "%s%s=array", r->len ? " " : "", key);
        return;
    }
    if (at != NULL)
        at += pos.z * p.pitch * p.ysize + pos.y * p.pitch + pos.x;
    tr_ptr(r, key, at);
    tr_size(r, pitch_key, p.pitch);
    tr_size(r, ysize_key, p.ysize);
}

/* cudaMemcpy3D(Async): dst= dpitch= dysize= src= spitch= sysize= width= height= depth= kind=. */
void tr_copy3d(struct tr_rec *r, const struct cudaMemcpy3DParms *p)
{
    if (p == NULL) {
        add(r, "%sparms=null", r->len ? " " : "");
        return;
    }
    pitched_side(r, "dst", "dpitch", "dysize", p->dstArray, p->dstPtr, p->dstPos);
    pitched_side(r, "src", "spitch", "sysize", p->srcArray, p->srcPtr, p->srcPos);
    tr_extent(r, p->extent);
    kind_field(r, p->kind);
}

/* cudaMemset3D(Async): dst= pitch= ysize= value= width= height= depth=. */
void tr_set3d(struct tr_rec *r, struct cudaPitchedPtr p, int value, struct cudaExtent extent)
{
    tr_ptr(r, "dst", p.ptr);
    tr_size(r, "pitch", p.pitch);
    tr_size(r, "ysize", p.ysize);
    tr_int(r, "value", value);
    tr_extent(r, extent);
}

static struct handle *find_handle(struct handle *list, size_t n, const void *h)
{
    size_t i;
    for (i = n; i-- > 0;)
        if (list[i].h == h)
            return &list[i];
    return NULL;
}

static void handle_field(struct tr_rec *r, const char *key, const char *what, struct handle *list, size_t n, const void *h)
{
    struct handle *found;
    pthread_mutex_lock(&lock);
    found = h != NULL ? find_handle(list, n, h) : NULL;
    pthread_mutex_unlock(&lock);
    if (h == NULL)
        add(r, "%s%s=0", r->len ? " " : "", key);
    else if (found != NULL)
        add(r, "%s%s=%s#%lu%s", r->len ? " " : "", key, what, found->id, found->live ? "" : "(destroyed)");
    else if ((uintptr_t)h == 1)
        add(r, "%s%s=legacy", r->len ? " " : "", key);
    else if ((uintptr_t)h == 2)
        add(r, "%s%s=per-thread", r->len ? " " : "", key);
    else
        add(r, "%s%s=unknown", r->len ? " " : "", key);
}

void tr_stream(struct tr_rec *r, const char *key, cudaStream_t s) { handle_field(r, key, "stream", streams, nstreams, s); }
void tr_event(struct tr_rec *r, const char *key, cudaEvent_t e) { handle_field(r, key, "event", events, nevents, e); }

/* kernel=NAME grid=XxYxZ block=XxYxZ shmem=N args=A,B,...: a pointer argument as a pointer field names it,
   other arguments are their bits as an unsigned number (a float 1.0f is 1065353216). */
void tr_launch(struct tr_rec *r, const void *func, dim3 grid, dim3 block, void **args, size_t shmem)
{
    const char *name = NULL;
    size_t sizes[32];
    int n, i;
    char value[64];
    n = tr_kernel_info(func, &name, sizes, 32);
    add(r, "%skernel=%s grid=%ux%ux%u block=%ux%ux%u shmem=%lu args=", r->len ? " " : "", name ? name : "?", grid.x,
        grid.y, grid.z, block.x, block.y, block.z, (unsigned long)shmem);
    if (n <= 0 || args == NULL) {
        add(r, "?");
        return;
    }
    for (i = 0; i < n; i++) {
        uint64_t v = 0;
        if (sizes[i] == 8) {
            memcpy(&v, args[i], 8);
            pthread_mutex_lock(&lock);
            name_ptr(value, sizeof value, (uintptr_t)v, 0);
            pthread_mutex_unlock(&lock);
        } else if (sizes[i] == 4 || sizes[i] == 2 || sizes[i] == 1) {
            memcpy(&v, args[i], sizes[i]); /* little-endian: the low bytes */
            snprintf(value, sizeof value, "%lu", (unsigned long)v);
        } else {
            snprintf(value, sizeof value, "[%lu bytes]", (unsigned long)sizes[i]);
        }
        add(r, "%s%s", i ? "," : "", value);
    }
}

/* --- what the call made or released --------------------------------------------------------------- */

void tr_out_size(struct tr_rec *r, const char *key, const size_t *p)
{
    if (r->status == cudaSuccess && p != NULL)
        tr_size(r, key, *p);
}

/* --- the device and the toolkit, as a device query asks (lesson 00) ------------------------------- */

void tr_out_int(struct tr_rec *r, const char *key, const int *p)
{
    if (r->status == cudaSuccess && p != NULL)
        tr_int(r, key, *p);
}

/* cudaMemGetInfo: total= and free= as the call wrote them, or as the grader's device makes them. Under
   CUDAWB_DEVICE_BUDGET free is what is left of the budget, or the device's real free memory when that is less;
   total stays the device's, as on a GPU that other processes share (they hold the rest). CUDAWB_DEVICE_MEMORY
   makes the device that size. */
void tr_mem_info(struct tr_rec *r, size_t *free_bytes, size_t *total_bytes)
{
    size_t left;
    if (r->status != cudaSuccess || free_bytes == NULL || total_bytes == NULL)
        return;
    if (budget_set) {
        pthread_mutex_lock(&lock);
        left = live_device < device_budget ? device_budget - live_device : 0;
        pthread_mutex_unlock(&lock);
        if (*free_bytes > left)
            *free_bytes = left;
    }
    if (device_memory != 0) {
        *total_bytes = device_memory;
        if (*free_bytes > device_memory)
            *free_bytes = device_memory;
    }
    tr_size(r, "free", *free_bytes);
    tr_size(r, "total", *total_bytes);
}

void tr_device_attr(struct tr_rec *r, enum cudaDeviceAttr attr, int *value)
{
    if (r->status != cudaSuccess || value == NULL)
        return;
    if (device_sms != 0 && attr == cudaDevAttrMultiProcessorCount)
        *value = device_sms;
    tr_int(r, "value", *value);
}

/* what a device query prints from cudaDeviceProp: the compute capability, SMs, memory, unified and managed */
void tr_device_prop(struct tr_rec *r, struct cudaDeviceProp *p)
{
    if (r->status != cudaSuccess || p == NULL)
        return;
    if (device_sms != 0)
        p->multiProcessorCount = device_sms;
    if (device_memory != 0)
        p->totalGlobalMem = device_memory;
    add(r, "%smajor=%d minor=%d sms=%d memory=%lu unified=%d managed=%d concurrent=%d", r->len ? " " : "", p->major,
        p->minor, p->multiProcessorCount, (unsigned long)p->totalGlobalMem, p->unifiedAddressing, p->managedMemory,
        p->concurrentManagedAccess);
}

void tr_func_attr(struct tr_rec *r, const void *func, const struct cudaFuncAttributes *a)
{
    const char *name = NULL;
    size_t sizes[1];
    /* only after a success: on a GPU the name is asked of the driver, which would fail (and set the last
       error) for a kernel the build has no code for */
    if (r->status != cudaSuccess || a == NULL)
        return;
    if (tr_kernel_info(func, &name, sizes, 1) >= 0 && name != NULL)
        tr_text(r, "kernel", name);
    add(r, "%sbinary=%d ptx=%d", r->len ? " " : "", a->binaryVersion, a->ptxVersion);
}

/* cudaRuntimeGetVersion and cudaDriverGetVersion: with no driver (CUDAWB_FAIL_DEVICE=35) the driver's is 0 */
void tr_version(struct tr_rec *r, int *version, int driver)
{
    if (r->status != cudaSuccess || version == NULL)
        return;
    if (driver && fail_device == cudaErrorInsufficientDriver)
        *version = 0;
    tr_int(r, "version", *version);
}

/* A time the call wrote, in ms (cudaEventElapsedTime): the grader computes ratios from the trace, not
   from what the program printed. */
void tr_out_ms(struct tr_rec *r, const float *ms)
{
    if (r->status == cudaSuccess && ms != NULL)
        add(r, "%sms=%.4f", r->len ? " " : "", (double)*ms);
}

void tr_new_alloc(struct tr_rec *r, enum tr_kind kind, void **ptr, size_t bytes)
{
    void *p = (ptr != NULL && r->status == cudaSuccess) ? *ptr : NULL;
    char name[64];
    add(r, "%salloc=%lu", r->len ? " " : "", r->alloc_no);
    if (p == NULL) {
        add(r, " ptr=null");
        return;
    }
    pthread_mutex_lock(&lock);
    if (nallocs == cap_allocs) {
        cap_allocs = cap_allocs ? 2 * cap_allocs : 256;
        allocs = (struct tracked *)realloc(allocs, cap_allocs * sizeof *allocs);
    }
    allocs[nallocs].base = (uintptr_t)p;
    allocs[nallocs].bytes = bytes;
    allocs[nallocs].id = r->alloc_no;
    allocs[nallocs].kind = kind;
    allocs[nallocs].live = 1;
    allocs[nallocs].fn = r->fn;
    if (kind == TR_DEVICE || kind == TR_MANAGED) {
        live_device += bytes;
        if (live_device > peak_device)
            peak_device = live_device;
    }
    snprintf(allocs[nallocs].site, sizeof allocs[nallocs].site, "%s", r->site);
    nallocs++;
    name_ptr(name, sizeof name, (uintptr_t)p, 1);
    pthread_mutex_unlock(&lock);
    add(r, " ptr=%s", name);
}

/* --- the device-memory budget (CUDAWB_DEVICE_BUDGET) -------------------------------------------------- */

/* The budget is kept by the trace itself, the same on both backends: filling a real GPU until N MiB are free
   does not leave N MiB a program can allocate (the runtime's lazily loaded modules, its 2 MiB pages and the
   driver's reserve take part of them: grader/README.md). Counted: the bytes each device or managed
   allocation asked for (pitched: pitch x rows), live from the call to its free, as the peak line counts. */

/* 1 when an allocation of kind that the real runtime made (status 0) would take the program past its budget:
   the wrapper then gives it back and fails the call as a real out-of-memory does (tr_keep_budget). */
int tr_over_budget(const struct tr_rec *r, enum tr_kind kind, size_t bytes)
{
    int over;
    if (!budget_set || r->status != cudaSuccess || (kind != TR_DEVICE && kind != TR_MANAGED))
        return 0;
    pthread_mutex_lock(&lock);
    over = live_device > device_budget || bytes > device_budget - live_device;
    pthread_mutex_unlock(&lock);
    return over;
}

/* The pitch a pitched allocation wrote: also when it failed with 2 (the H200 writes it then), but not when the
   trace failed it (the real call never ran, so the pitch is whatever the program left there). */
void tr_pitch(struct tr_rec *r, const size_t *pitch)
{
    if (pitch == NULL) /* a question of lesson 06's probe: its call is told apart by this */
        add(r, "%spitch=null", r->len ? " " : "");
    else if (!r->injected && (r->status == cudaSuccess || r->status == cudaErrorMemoryAllocation))
        tr_size(r, "pitch", *pitch);
}

/* A free is invalid when the runtime rejects the pointer (freed twice, a host pointer, an interior
   pointer, pinned memory given to cudaFree); a sticky error is not the pointer's fault. */
void tr_free(struct tr_rec *r, const void *ptr, int kinds)
{
    size_t i;
    if (ptr == NULL)
        return;
    if (r->status == cudaSuccess)
        tr_prov_freed(ptr);
    pthread_mutex_lock(&lock);
    if (r->status == cudaSuccess) {
        for (i = nallocs; i-- > 0;)
            if (allocs[i].live && allocs[i].base == (uintptr_t)ptr && ((int)allocs[i].kind & kinds) != 0) {
                allocs[i].live = 0;
                if (allocs[i].kind == TR_DEVICE || allocs[i].kind == TR_MANAGED)
                    live_device -= allocs[i].bytes;
                break;
            }
    } else if (r->status == cudaErrorInvalidValue) {
        invalid_frees++;
        add(r, " invalid=1");
    }
    pthread_mutex_unlock(&lock);
}

/* Appends handle h, numbered next, to a list (the lock held); returns its entry. */
static struct handle *append_handle(struct handle **list, size_t *n, size_t *cap, unsigned long *ids, const void *h,
                                    int live)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        *list = (struct handle *)realloc(*list, *cap * sizeof **list);
    }
    (*list)[*n].h = h;
    (*list)[*n].id = ++*ids;
    (*list)[*n].live = live;
    return &(*list)[(*n)++];
}

static void new_handle(struct tr_rec *r, struct handle **list, size_t *n, size_t *cap, unsigned long *ids,
                       const char *what, const void *h)
{
    unsigned long id;
    if (r->status != cudaSuccess || h == NULL)
        return;
    pthread_mutex_lock(&lock);
    id = append_handle(list, n, cap, ids, h, 1)->id;
    pthread_mutex_unlock(&lock);
    add(r, "%s%s=%s#%lu", r->len ? " " : "", what, what, id);
}

static void end_handle(struct tr_rec *r, struct handle *list, size_t n, const void *h)
{
    struct handle *found;
    if (r->status != cudaSuccess)
        return;
    pthread_mutex_lock(&lock);
    found = find_handle(list, n, h);
    if (found != NULL)
        found->live = 0;
    pthread_mutex_unlock(&lock);
}

void tr_new_stream(struct tr_rec *r, cudaStream_t *s)
{
    new_handle(r, &streams, &nstreams, &cap_streams, &stream_ids, "stream", s != NULL ? (const void *)*s : NULL);
}
void tr_end_stream(struct tr_rec *r, cudaStream_t s) { end_handle(r, streams, nstreams, s); }
void tr_new_event(struct tr_rec *r, cudaEvent_t *e)
{
    new_handle(r, &events, &nevents, &cap_events, &event_ids, "event", e != NULL ? (const void *)*e : NULL);
}
void tr_end_event(struct tr_rec *r, cudaEvent_t e) { end_handle(r, events, nevents, e); }

/* A pool is named in the order the program first saw it; only created pools count as live (the default one
   is the device's). The handle list's live flag: 1 created and not destroyed, 0 otherwise. */
static void pool_field(struct tr_rec *r, cudaMemPool_t pool, int created)
{
    struct handle *found;
    unsigned long id;
    if (pool == NULL) {
        add(r, "%spool=null", r->len ? " " : "");
        return;
    }
    pthread_mutex_lock(&lock);
    found = find_handle(pools, npools, pool);
    if (found == NULL || created)
        found = append_handle(&pools, &npools, &cap_pools, &pool_ids, pool, created);
    id = found->id;
    pthread_mutex_unlock(&lock);
    add(r, "%spool=pool#%lu", r->len ? " " : "", id);
}
void tr_pool(struct tr_rec *r, cudaMemPool_t pool) { pool_field(r, pool, 0); }
void tr_out_pool(struct tr_rec *r, cudaMemPool_t *pool, int created)
{
    if (r->status == cudaSuccess && pool != NULL)
        pool_field(r, *pool, created);
}
void tr_end_pool(struct tr_rec *r, cudaMemPool_t pool) { end_handle(r, pools, npools, pool); }

/* The attributes' names without their prefix; the reuse flags are ints, the others 64-bit sizes. */
void tr_pool_attr(struct tr_rec *r, int attr, const void *value)
{
    static const char *names[] = {"?", "ReuseFollowEventDependencies", "ReuseAllowOpportunistic",
                                  "ReuseAllowInternalDependencies", "ReleaseThreshold", "ReservedMemCurrent",
                                  "ReservedMemHigh", "UsedMemCurrent", "UsedMemHigh"};
    const char *name = attr >= 1 && attr <= 8 ? names[attr] : "?";
    add(r, "%sattr=%s", r->len ? " " : "", name);
    if (value == NULL)
        return;
    if (attr >= 1 && attr <= 3)
        add(r, " value=%d", *(const int *)value);
    else
        add(r, " value=%llu", (unsigned long long)*(const unsigned long long *)value);
}

void tr_out_ptr(struct tr_rec *r, const char *key, void **out)
{
    char name[64];
    if (r->status != cudaSuccess || out == NULL)
        return;
    pthread_mutex_lock(&lock);
    name_ptr(name, sizeof name, (uintptr_t)*out, 1);
    pthread_mutex_unlock(&lock);
    add(r, "%s%s=%s", r->len ? " " : "", key, name);
}

void tr_handle(struct tr_rec *r, int delta)
{
    (void)r;
    pthread_mutex_lock(&lock);
    live_handles += delta;
    pthread_mutex_unlock(&lock);
}

/* --- the report ------------------------------------------------------------------------------------ */

static long count_live(struct handle *list, size_t n)
{
    long live = 0;
    size_t i;
    for (i = 0; i < n; i++)
        live += list[i].live;
    return live;
}

/* The report. From a signal handler (locked = 0) the lock is taken only if free: the signal may have come
   while a traced call held it, and a dying program must not wait for itself. */
static void write_report_now(int lock_it)
{
    FILE *out, *file;
    char *text = NULL, hex[65];
    size_t i, live = 0, bytes = 0, text_len = 0;
    int locked;
    if (report_path == NULL || (out = open_memstream(&text, &text_len)) == NULL)
        return;
    locked = lock_it ? pthread_mutex_lock(&lock) == 0 : pthread_mutex_trylock(&lock) == 0;
    flush_again();
    fprintf(out, "cudawb-report 2\n");
    if (log_file != NULL) {
        fflush(log_file);
        fwrite(log_buf, 1, log_len, out);
    }
    fprintf(out, "calls %lu\n", seq);
    fprintf(out, "alloc-calls %lu\n", alloc_calls);
    if (dropped > 0)
        fprintf(out, "dropped %lu\n", dropped);
    for (i = 0; i < nfns; i++)
        fprintf(out, "fn-calls fn=%s count=%lu\n", fns[i].fn, fns[i].count);
    for (i = 0; i < nallocs; i++)
        if (allocs[i].live) {
            live++;
            bytes += allocs[i].bytes;
        }
    fprintf(out, "invalid-frees %lu\n", invalid_frees);
    fprintf(out, "live-handles %ld\n", live_handles);
    fprintf(out, "live-streams %ld\nlive-events %ld\n", count_live(streams, nstreams), count_live(events, nevents));
    fprintf(out, "live-pools %ld\n", count_live(pools, npools));
    fprintf(out, "live %lu %lu\n", (unsigned long)live, (unsigned long)bytes);
    fprintf(out, "peak %lu\n", (unsigned long)peak_device);
    for (i = 0; i < nallocs; i++)
        if (allocs[i].live)
            fprintf(out, "leak fn=%s bytes=%lu ptr=%s#%lu site=%s\n", allocs[i].fn, (unsigned long)allocs[i].bytes,
                    kind_prefix(allocs[i].kind), allocs[i].id, allocs[i].site);
    if (seen_sticky != cudaSuccess)
        fprintf(out, "sticky %d%s\n", (int)seen_sticky, sticky_injected ? " injected=1" : "");
    if (locked)
        pthread_mutex_unlock(&lock);
    fclose(out);
    /* Written whole, then sealed with the run's key (seal.h): the grader believes only a sealed report. */
    if ((file = fopen(report_path, "w")) != NULL) {
        fwrite(text, 1, text_len, file);
        if (seal_with_key(text, text_len, hex))
            fprintf(file, "seal %s\n", hex);
        fclose(file);
    }
    free(text);
}
/* At exit the checker's variables are back for good: its own end-of-run work may read them, and no lesson
   code runs after this. */
static void write_report(void)
{
    show_watched_vars();
    write_report_now(1);
}

/* --- a program killed by a signal --------------------------------------------------------------- */

/* A crash, an abort or the grader's time limit (SIGTERM, or SIGXCPU for CPU time) would lose the report and what the program had
   printed. The handler adds the signal as the last record (class=signal status=SIG, addr= the faulting
   address named like a pointer: alloc#K+OFF for host code touching device memory, stack= from the faulting
   instruction), flushes stdout, writes the report and lets the signal kill the program as before. On the
   CPU backend the runtime's own handler runs first: a fault inside a kernel is its to report, and it does
   not return. */
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGXCPU};
static struct sigaction previous_action[sizeof fatal_signals / sizeof fatal_signals[0]];

static uintptr_t fault_pc(void *ctx)
{
#if defined(__x86_64__)
    return (uintptr_t)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)((ucontext_t *)ctx)->uc_mcontext.pc;
#else
    (void)ctx;
    return 0;
#endif
}

static void on_fatal(int sig, siginfo_t *si, void *ctx)
{
    size_t k;
    char where[64] = "", stack[256] = "", during[TR_FIELDS + 64] = "";
    Dl_info info, self;
    uintptr_t pc = fault_pc(ctx);
    for (k = 0; k < sizeof fatal_signals / sizeof fatal_signals[0]; k++)
        if (fatal_signals[k] == sig && (previous_action[k].sa_flags & SA_SIGINFO) && previous_action[k].sa_sigaction)
            previous_action[k].sa_sigaction(sig, si, ctx);
    fflush(stdout);
    if (report_path != NULL && log_file != NULL) {
        if (sig == SIGSEGV || sig == SIGBUS) {
            strcpy(where, " addr=");
            name_ptr(where + 6, sizeof where - 6, (uintptr_t)si->si_addr, 1);
        }
        if (in_flight != NULL) /* the program's frames that led to the call (addr2line names its line) */
            stack_field(stack, sizeof stack);
        else if (pc != 0 && dladdr((void *)tr_start, &self) != 0 && dladdr((void *)pc, &info) != 0 &&
            info.dli_fbase == self.dli_fbase)
            snprintf(stack, sizeof stack, " stack=+0x%lx", (unsigned long)(pc - (uintptr_t)info.dli_fbase));
        flush_again();
        /* during a traced call: its site, name and arguments (during=FN ...) */
        if (in_flight != NULL)
            snprintf(during, sizeof during, " during=%s%s%s", in_flight->fn, in_flight->len > 0 ? " " : "",
                     in_flight->fields);
        fprintf(log_file, "call n=%lu fn=signal class=signal status=%d site=%s sig=%s%s%s printed=%ld%s\n", seq + 1, sig,
                in_flight != NULL ? in_flight->site : "?",
                sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGFPE ? "SIGFPE" : sig == SIGILL ? "SIGILL"
                : sig == SIGABRT ? "SIGABRT" : sig == SIGXCPU ? "SIGXCPU" : "SIGTERM", where, during,
                (long)lseek(STDOUT_FILENO, 0, SEEK_CUR), stack);
        write_report_now(0);
        report_path = NULL; /* once: exit handlers must not write it again */
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* After the CPU backend's runtime (constructor 101) has installed its handler, which on_fatal calls first. */
__attribute__((constructor(104))) static void tr_catch_signals(void)
{
    size_t k;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    /* NODEFER and the alternate stack, as the runtime's handler needs (it leaves by siglongjmp) */
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (k = 0; k < sizeof fatal_signals / sizeof fatal_signals[0]; k++)
        sigaction(fatal_signals[k], &sa, &previous_action[k]);
}

/* Registered before main: exit handlers run in reverse order, so the report is written after every
   handler the program registers, and sees what they freed. */
__attribute__((constructor(103))) static void tr_hook_exit(void) { atexit(write_report); }
