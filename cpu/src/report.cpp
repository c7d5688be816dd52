// report.cpp: the grader's CUDAWB_ interface (grader/README.md): allocation-failure injection and the
// leak report written at exit, in exactly the format the GPU shim writes.
#include "internal.h"
#include <mutex>
#include <string.h>
#include <string>
#include <vector>

namespace rt {
static long ncalls, ninvalid, nhandles;
// never destroyed: the report is written by an exit hook, possibly after static destructors
struct records {
    std::vector<std::string> lines;  // call, free and cublas records in program order, as the GPU shim logs them
    std::mutex mu;
};
static records &R() {
    static records *r = new records;
    return *r;
}

const char *basename_of(const char *path) {
    if (!path) return "?";
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

bool inject_alloc_failure() {
    std::lock_guard<std::mutex> g(R().mu);
    return ++ncalls == cfg.fail_alloc;
}

static std::string site(const cudawb_site &at) {
    if (!at.file) return "?";
    return std::string(basename_of(at.file)) + ":" + std::to_string(at.line);
}

void report_call(const char *fn, size_t bytes, cudaError_t status, const void *ptr, const cudawb_site &at, int injected) {
    if (!cfg.report_path) return;
    char line[512];
    std::lock_guard<std::mutex> g(R().mu);
    snprintf(line, sizeof line, "call n=%ld fn=%s bytes=%lu status=%d ptr=0x%lx site=%s%s", ncalls, fn,
             (unsigned long)bytes, (int)status, (unsigned long)(uintptr_t)ptr, site(at).c_str(),
             injected ? " injected=1" : "");
    R().lines.push_back(line);
}

void report_free(const char *fn, const void *ptr, cudaError_t status, const cudawb_site &at, int invalid) {
    std::lock_guard<std::mutex> g(R().mu);
    ninvalid += invalid;
    if (!cfg.report_path) return;
    char line[512];
    snprintf(line, sizeof line, "free fn=%s ptr=0x%lx status=%d site=%s%s", fn, (unsigned long)(uintptr_t)ptr,
             (int)status, site(at).c_str(), invalid ? " invalid=1" : "");
    R().lines.push_back(line);
}

void report_cublas(const char *fn, int status, const void *handle, int injected) {
    std::lock_guard<std::mutex> g(R().mu);
    if (status == 0) nhandles += strcmp(fn, "cublasCreate") == 0 ? 1 : -1;
    if (!cfg.report_path) return;
    char line[256];
    if (injected) snprintf(line, sizeof line, "cublas fn=%s status=%d injected=1", fn, status);
    else snprintf(line, sizeof line, "cublas fn=%s status=%d handle=0x%lx", fn, status, (unsigned long)(uintptr_t)handle);
    R().lines.push_back(line);
}

struct totals { long count; size_t bytes; FILE *f; int pass; };
static void live_cb(const alloc *a, void *ctx) {
    totals *t = (totals *)ctx;
    if (t->pass == 0) { t->count++; t->bytes += a->size; return; }
    fprintf(t->f, "leak fn=%s bytes=%lu ptr=0x%lx site=%s:%d\n", a->fn, (unsigned long)a->size,
            (unsigned long)a->base, a->file, a->line);
}

// Called at exit (normal return or exit(), not on a signal).
void write_report() {
    if (!cfg.report_path) return;
    long streams = 0, events = 0;
    live_streams_and_events(&streams, &events);  // before R().mu: never hold both locks at once
    FILE *f = fopen(cfg.report_path, "w");
    if (!f) return;
    std::lock_guard<std::mutex> g(R().mu);
    fprintf(f, "cudawb-report 1\n");
    for (auto &l : R().lines) fprintf(f, "%s\n", l.c_str());
    fprintf(f, "alloc-calls %ld\ninvalid-frees %ld\nlive-handles %ld\n", ncalls, ninvalid, nhandles);
    fprintf(f, "live-streams %ld\nlive-events %ld\n", streams, events);
    totals t = {0, 0, f, 0};
    live_allocations(live_cb, &t);
    fprintf(f, "live %ld %lu\n", t.count, (unsigned long)t.bytes);
    t.pass = 1;
    live_allocations(live_cb, &t);
    fclose(f);
}
} // namespace rt
