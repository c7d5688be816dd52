// racecheck.cpp: bin/compute-sanitizer --tool racecheck (CUDAWB_RACECHECK=1), compute-sanitizer's shared-memory
// hazard detector. The rewriter wraps every access to a __shared__ variable (include/cudawb/shared_check.h);
// for each byte of shared memory this records, since the block began, the last write and up to two reads,
// each with the thread, its source line and how many __syncthreads (and __syncwarp) the thread had passed.
// Two accesses of different threads with no barrier between them, one of them a write, are a hazard, found
// whatever order the CPU ran them in (a read is remembered until a later write meets it):
//   write then read: RAW; read then write: WAR; write then write: WAW.
// As the real tool ranks them, a hazard between lanes of one warp is a warning (warp-synchronous code that
// lacks a __syncwarp), between warps an error. After each kernel the hazards are reported as the real tool's
// default "analysis" reports (one per pair of source lines, with their count), or with
// --racecheck-report hazard one per hazard (threads, block, byte offset).
#include "worker.h"
#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <string.h>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace rt {
namespace {
static const char *P = "========= ";

struct access {
    int32_t thread;  // linear index in the block; -1: none
    uint32_t bar, wsync;  // barriers and __syncwarps the thread had passed
    int32_t site;
};
struct byte_rec {
    uint64_t block;  // the block run (serial) the record belongs to: older ones are empty
    access w, r1, r2;
};
enum { RAW, WAR, WAW };
struct hazard {
    int type;
    bool error;
    access first, second;
    uint3 block;
    uintptr_t offset;
};
// an analysis report: the first access's kind and line, then each other line it raced with
struct pair_key {
    bool error;
    int first_write, first_site, second_write, second_site;
    bool operator<(const pair_key &o) const {
        return std::tie(error, first_write, first_site, second_write, second_site) <
               std::tie(o.error, o.first_write, o.first_site, o.second_write, o.second_site);
    }
};

struct state {  // one worker thread's: the block it runs
    uint64_t gen = ~0ull, block = 0, serial = 0;
    std::vector<uint32_t> bar, wsync;  // per thread of the block
    std::unordered_map<uintptr_t, std::vector<byte_rec>> shadow;  // per shared variable, per byte
    struct shadow_slot { uintptr_t base; std::vector<byte_rec> *recs; } shadow_cache[8] = {};  // recently used
    std::map<pair_key, uint64_t> pairs;  // this kernel's hazards, counted by pair of lines
    std::vector<hazard> first;  // and the first of them, for --racecheck-report hazard
    const char *kernel = nullptr;  // the kernel they were found in, and its block shape
    dim3 shape;
    struct site_slot { const char *file; int line, id; } site_cache[64] = {};  // direct-mapped: the lines of a loop
};

// Made on first use (a global constructor in the program may launch a kernel before this file's initialisers
// run), never destroyed; std::mutex is constant-initialised.
std::mutex mu;
std::vector<state *> &states() {
    static auto &v = *new std::vector<state *>;
    return v;
}
std::vector<std::pair<const char *, int>> &sites() {
    static auto &v = *new std::vector<std::pair<const char *, int>>;
    return v;
}
std::map<std::pair<const char *, int>, int> &site_ids() {
    static auto &v = *new std::map<std::pair<const char *, int>, int>;
    return v;
}
std::atomic<uint64_t> generation{0}, serials{0};
// what the threads that ended found (a cooperative launch runs each block on a thread of its own), until the
// kernel's report
std::map<pair_key, uint64_t> &retired_pairs() {
    static auto &v = *new std::map<pair_key, uint64_t>;
    return v;
}
std::vector<hazard> &retired_first() {
    static auto &v = *new std::vector<hazard>;
    return v;
}
const char *retired_kernel;
dim3 retired_shape;
__thread state *mine;

struct owner {  // frees the thread's state when the thread ends, keeping its findings
    ~owner() {
        if (!mine) return;
        std::lock_guard<std::mutex> g(mu);
        if (!mine->pairs.empty()) {
            retired_kernel = mine->kernel;
            retired_shape = mine->shape;
        }
        for (auto &p : mine->pairs) retired_pairs()[p.first] += p.second;
        retired_first().insert(retired_first().end(), mine->first.begin(), mine->first.end());
        states().erase(std::find(states().begin(), states().end(), mine));
        delete mine;
        mine = nullptr;
    }
};
thread_local owner owns_mine;

// the running block's state: a new block (or kernel) starts with no barrier passed and no access recorded
state &current() {
    if (!mine) {
        mine = new state;
        (void)&owns_mine;  // its destructor runs when this thread ends
        std::lock_guard<std::mutex> g(mu);
        states().push_back(mine);
    }
    state &s = *mine;
    worker *w = self;
    uint64_t gen = generation.load(std::memory_order_relaxed);
    if (s.gen != gen || s.block != w->block) {
        s.gen = gen;
        s.block = w->block;
        s.serial = ++serials;
        s.kernel = w->k->d->name;
        s.shape = w->k->d->block;
        size_t n = (size_t)blockDim.x * blockDim.y * blockDim.z;
        s.bar.assign(n, 0);
        s.wsync.assign(n, 0);
    }
    return s;
}

int thread_index() { return (int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)); }

int site_id(state &s, const char *file, int line) {
    state::site_slot &slot = s.site_cache[((uintptr_t)file >> 3 ^ (unsigned)line * 2654435761u) & 63];
    if (slot.file == file && slot.line == line) return slot.id;
    auto key = std::make_pair(file, line);
    std::lock_guard<std::mutex> g(mu);
    auto gi = site_ids().find(key);
    int id;
    if (gi != site_ids().end()) id = gi->second;
    else {
        id = (int)sites().size();
        sites().push_back(key);
        site_ids()[key] = id;
    }
    slot = state::site_slot{file, line, id};
    return id;
}

// no barrier between them: different threads, the later one has passed no __syncthreads (nor, in the same
// warp, a __syncwarp) since the earlier one's access
bool concurrent(const access &earlier, const access &now) {
    if (earlier.thread < 0 || earlier.thread == now.thread || now.bar > earlier.bar) return false;
    return !(earlier.thread / 32 == now.thread / 32 && now.wsync > earlier.wsync);
}

void note(state &s, int type, const access &earlier, const access &now, uintptr_t offset) {
    bool error = earlier.thread / 32 != now.thread / 32;
    bool first_write = type != WAR, second_write = type != RAW;
    s.pairs[pair_key{error, first_write, earlier.site, second_write, now.site}]++;
    if (s.first.size() < 100) s.first.push_back(hazard{type, error, earlier, now, blockIdx, offset});
}

std::string where(int site, const char *kernel) {
    std::pair<const char *, int> at;
    {
        std::lock_guard<std::mutex> g(mu);
        at = sites()[(size_t)site];
    }
    return std::string(kernel) + " in " + basename_of(at.first) + ":" + std::to_string(at.second);
}

int site_line(int site) {
    std::lock_guard<std::mutex> g(mu);
    return sites()[(size_t)site].second;
}

uint3 thread_of(int index, dim3 b) {
    return uint3{(unsigned)index % b.x, (unsigned)index / b.x % b.y, (unsigned)index / (b.x * b.y)};
}
} // namespace

// one byte's record meets an access of the running thread; the first hazard of the access is noted
static void meet(state &s, byte_rec &r, const access &now, int kind, uintptr_t offset, bool &read_noted,
                 bool &write_noted) {
    const access none{-1, 0, 0, 0};
    if (r.block != s.serial) {
        r.block = s.serial;
        r.w = r.r1 = r.r2 = none;
    }
    if (kind & cudawb::SH_READ) {
        if (!read_noted && concurrent(r.w, now)) {
            note(s, RAW, r.w, now, offset);
            read_noted = true;
        }
        // keep two readers since the last write: a later write by a third thread races with either
        if (r.r1.thread < 0 || r.r1.thread == now.thread || !concurrent(r.r1, now)) r.r1 = now;
        else if (r.r2.thread < 0 || r.r2.thread == now.thread || !concurrent(r.r2, now)) r.r2 = now;
    }
    if (kind & cudawb::SH_WRITE) {
        if (!write_noted) {
            const access *other = concurrent(r.w, now) ? &r.w : concurrent(r.r1, now) ? &r.r1
                                                        : concurrent(r.r2, now) ? &r.r2 : nullptr;
            if (other) {
                note(s, other == &r.w ? WAW : WAR, *other, now, offset);
                write_noted = true;
            }
        }
        r.w = now;
        r.r1 = r.r2 = none;
    }
}

void race_access(uintptr_t a, size_t size, uintptr_t base, size_t bytes, int kind, const char *file, int line) {
    // atomics do not race with one another; an access out of bounds is memcheck's to report
    if (kind == cudawb::SH_ATOMIC || a < base || a - base > bytes || size > bytes - (a - base)) return;
    state &s = current();
    state::shadow_slot &slot = s.shadow_cache[(base >> 6) & 7];
    if (slot.base != base || !slot.recs || slot.recs->size() < bytes) {
        std::vector<byte_rec> &v = s.shadow[base];
        if (v.size() < bytes) v.resize(bytes, byte_rec{0, {-1, 0, 0, 0}, {-1, 0, 0, 0}, {-1, 0, 0, 0}});
        slot = state::shadow_slot{base, &v};
    }
    int id = thread_index();
    access now{id, s.bar[(size_t)id], s.wsync[(size_t)id], site_id(s, file, line)};
    bool read_noted = false, write_noted = false;  // one hazard per access, not one per byte
    byte_rec *r = slot.recs->data();
    for (size_t i = a - base; i < a - base + size; i++) meet(s, r[i], now, kind, i, read_noted, write_noted);
}

void race_access_pointer(uintptr_t a, size_t size, int kind, const char *file, int line) {
    state &s = current();
    for (auto &v : s.shadow)
        if (a >= v.first && a - v.first < v.second.size()) {
            race_access(a, size, v.first, v.second.size(), kind, file, line);
            return;
        }
}

// After each kernel: its hazards, as compute-sanitizer reports them; one line per report in the sanitizer's
// log, which bin/compute-sanitizer counts for the RACECHECK SUMMARY line.
void race_kernel_reports() {
    generation++;
    std::map<pair_key, uint64_t> pairs;
    std::vector<hazard> first;
    const char *kernel = "kernel";
    dim3 bd{1, 1, 1};
    {
        std::lock_guard<std::mutex> g(mu);
        pairs.swap(retired_pairs());
        first.swap(retired_first());
        if (!pairs.empty()) {
            kernel = retired_kernel;
            bd = retired_shape;
        }
        for (state *s : states()) {
            if (!s->pairs.empty()) {
                kernel = s->kernel;
                bd = s->shape;
            }
            for (auto &p : s->pairs) pairs[p.first] += p.second;
            first.insert(first.end(), s->first.begin(), s->first.end());
            s->pairs.clear();
            s->first.clear();
        }
    }
    if (pairs.empty()) return;
    static const char *kinds[] = {"Read", "Write"};
    fflush(stdout);
    if (cfg.race_report & 2) {  // hazard reports: one per hazard (the first 100 of the kernel)
        static const char *types[] = {"RAW", "WAR", "WAW"};
        std::stable_sort(first.begin(), first.end(), [](const hazard &x, const hazard &y) {
            if (x.block.z != y.block.z) return x.block.z < y.block.z;
            if (x.block.y != y.block.y) return x.block.y < y.block.y;
            return x.block.x < y.block.x;
        });
        for (size_t i = 0; i < first.size() && i < 100; i++) {
            const hazard &h = first[i];
            uint3 t1 = thread_of(h.first.thread, bd), t2 = thread_of(h.second.thread, bd);
            fprintf(stdout, "%s%s: Potential %s hazard detected at __shared__ 0x%lx in block (%u,%u,%u) :\n", P,
                    h.error ? "Error" : "Warning", types[h.type], (unsigned long)h.offset, h.block.x, h.block.y,
                    h.block.z);
            fprintf(stdout, "%s    %s Thread (%u,%u,%u) at %s\n", P, kinds[h.type != WAR], t1.x, t1.y, t1.z,
                    where(h.first.site, kernel).c_str());
            fprintf(stdout, "%s    %s Thread (%u,%u,%u) at %s\n%s\n", P, kinds[h.type != RAW], t2.x, t2.y, t2.z,
                    where(h.second.site, kernel).c_str(), P);
            if (cfg.race_report == 2) memcheck_count(h.error ? "race-error" : "race-warning");
        }
    }
    if (cfg.race_report & 1) {  // analysis reports: per first access, every line it raced with
        // in the order of the source lines (site numbers depend on which worker met a line first)
        std::vector<std::pair<pair_key, uint64_t>> sorted(pairs.begin(), pairs.end());
        std::stable_sort(sorted.begin(), sorted.end(), [](const std::pair<pair_key, uint64_t> &x,
                                                          const std::pair<pair_key, uint64_t> &y) {
            const pair_key &a = x.first, &b = y.first;
            return std::make_tuple(!a.error, site_line(a.first_site), a.first_write, site_line(a.second_site),
                                   a.second_write) < std::make_tuple(!b.error, site_line(b.first_site), b.first_write,
                                                                     site_line(b.second_site), b.second_write);
        });
        for (auto it = sorted.begin(); it != sorted.end();) {
            const pair_key &head = it->first;
            fprintf(stdout, "%s%s: Race reported between %s access at %s\n", P, head.error ? "Error" : "Warning",
                    kinds[head.first_write], where(head.first_site, kernel).c_str());
            auto same = [&](const pair_key &x) {
                return x.error == head.error && x.first_write == head.first_write && x.first_site == head.first_site;
            };
            auto end = it;
            for (; end != sorted.end() && same(end->first); ++end)
                fprintf(stdout, "%s    and %s access at %s [%lu hazard%s]\n", P, kinds[end->first.second_write],
                        where(end->first.second_site, kernel).c_str(), (unsigned long)end->second,
                        end->second == 1 ? "" : "s");
            fprintf(stdout, "%s\n", P);
            memcheck_count(head.error ? "race-error" : "race-warning");
            it = end;
        }
    }
    fflush(stdout);
}
} // namespace rt

using namespace rt;

void cudawb::race_barrier(void) {
    worker *w = self;
    if (!w || !w->in_kernel) return;
    current().bar[(size_t)thread_index()]++;
}

void cudawb::race_syncwarp(void) {
    worker *w = self;
    if (!w || !w->in_kernel) return;
    current().wsync[(size_t)thread_index()]++;
}
