// config.cpp: reads the runtime's settings from the environment once, at the first CUDA call or at startup.
#include "internal.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

namespace rt {
config cfg;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static long env_long(const char *name, long dflt) {
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 0) : dflt;
}

static void at_exit() {
    if (cfg.memcheck && cfg.memcheck_leaks) memcheck_leaks();
}

static void init_once() {
    const char *mem = getenv("CUDAWB_CPU_MEMORY");
    cfg.capacity = mem && *mem ? strtoull(mem, NULL, 0) : (size_t)8 << 30;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    cfg.threads = (int)env_long("CUDAWB_CPU_THREADS", cores > 0 ? cores : 1);
    if (cfg.threads < 1) cfg.threads = 1;
    if (cfg.threads > 256) cfg.threads = 256;
    cfg.memcheck = (int)env_long("CUDAWB_MEMCHECK", 0);
    cfg.shuffle = (int)env_long("CUDAWB_SHUFFLE", 0);
    const char *sched = getenv("CUDAWB_SCHEDULE");
    if (sched && strcmp(sched, "reverse") == 0) cfg.schedule = SCHEDULE_REVERSE;
    if (sched && strncmp(sched, "shuffle:", 8) == 0) {
        cfg.schedule = SCHEDULE_SHUFFLE;
        cfg.schedule_seed = strtoull(sched + 8, NULL, 0);
    }
    cfg.stack = (size_t)env_long("CUDAWB_CPU_STACK", 64 << 10);
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    // the one device is visible when the list's first entry is 0: "", -1 or a device that is not there (3)
    // hide it (100), as on the H200; what follows the first entry does not matter with one device
    if (vis) {
        char *end;
        long first = strtol(vis, &end, 10);
        cfg.no_device = end == vis || first != 0 || (*end != 0 && *end != ',');
    }
    cfg.memcheck_leaks = (int)env_long("CUDAWB_MEMCHECK_LEAKS", 0);
    // a copy: the grader's shim blanks every CUDAWB_ variable's text once the runtime has read it. Not on the
    // heap, which a watched run must leave as a plain run does (a program can see where its malloc lands)
    static char log_path[4096];
    const char *log = getenv("CUDAWB_MEMCHECK_LOG");
    cfg.memcheck_log = log && strlen(log) < sizeof log_path ? strcpy(log_path, log) : NULL;
    cfg.report_api_errors = (int)env_long("CUDAWB_MEMCHECK_API_ERRORS", 1);
    cfg.racecheck = (int)env_long("CUDAWB_RACECHECK", 0);
    cfg.lockstep = (int)env_long("CUDAWB_LOCKSTEP", 1);
    const char *race_report = getenv("CUDAWB_RACECHECK_REPORT");
    cfg.race_report = !race_report || !*race_report || !strcmp(race_report, "analysis") ? 1
                      : !strcmp(race_report, "hazard")                                  ? 2
                                                                                        : 3;
    // the rewriter's wrapper around shared-memory accesses tests this (include/cudawb/shared_check.h)
    cudawb::shared_checks = cfg.memcheck ? cudawb::SH_MEMCHECK : cfg.racecheck ? cudawb::SH_RACECHECK : 0;
    install_fault_handler();
    atexit(at_exit);
}

void init() { pthread_once(&once, init_once); }

// Settings and exit hooks must be in place before main runs, and before the grader's shim (constructor
// 102) removes every CUDAWB_ variable from the environment, so that the program cannot see them.
__attribute__((constructor(101))) static void init_at_startup() { init(); }
} // namespace rt
