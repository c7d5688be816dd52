// warp.cpp: the warp-level primitives (include/cudawb/warp.h). A kernel that uses them runs its threads as
// fibers under fiber.cpp's general scheduler: a lane that reaches a primitive leaves its part in its warp's
// slot and waits; the lane whose arrival completes the set named by the masks computes every lane's result
// at once (so a fast lane cannot overwrite its part before a slow one read it) and wakes them. Lanes that
// exited, or do not exist in a partial last warp, take no part, as CUDA allows ("non-exited threads named in
// mask"). A named lane that waits elsewhere (at __syncthreads) would hang a GPU: when nothing else can run,
// the exchange completes with the lanes that came and, under the checker, is reported as synccheck does.
#include "worker.h"
#include <mutex>
#include <stdlib.h>
#include <string>
#include <vector>

namespace rt {
namespace {
using namespace cudawb;
struct lane_part {
    uint64_t value;
    int op, arg, width;
    unsigned mask;
    uintptr_t pc;  // the call's return address: the kernel's line, for a report
};
// Lanes meet per call site (the return address into the kernel), as the GPU's lanes meet at one
// instruction; __syncwarp is the exception: since Volta, different __syncwarp calls can meet (key 0).
struct group {
    uintptr_t key;
    unsigned arrived, named;  // lanes waiting here; lanes their masks name
};
struct slot {  // one warp: a lane waits in one group at a time, so its part and result are per lane
    lane_part in[32];
    uint64_t out[32];
    group g[32];
    int ngroups;
    unsigned absent;  // lanes that exited, or that a partial last warp lacks
};
__thread slot warps[32];  // the running block's warps (a block has at most 1024 threads)

enum { DIVERGENT, INVALID, EXITED_SOURCE };
struct finding {
    int kind, lane;
    uintptr_t pc;
    const char *kernel;
    uint3 block, thread;
};
// Made on first use (a global constructor in the program may launch a kernel before this file's initialisers
// run), never destroyed; std::mutex is constant-initialised.
std::mutex findings_mu;
std::vector<finding> &findings() {
    static auto &v = *new std::vector<finding>;
    return v;
}

uint3 thread_of(unsigned index) {
    fiber *f = fiber_at(index);
    return f ? f->tid : uint3{0, 0, 0};
}

void note(int kind, unsigned index, int lane, uintptr_t pc) {
    if (!cfg.memcheck) return;
    worker *w = self;
    std::lock_guard<std::mutex> g(findings_mu);
    findings().push_back(finding{kind, lane, pc, w && w->k ? w->k->d->name : "kernel", blockIdx, thread_of(index)});
}

// lanes of warp wi that take no part: exited, or past the block's last thread
unsigned absent_lanes(unsigned wi) { return warps[wi].absent; }

// PTX shfl.sync's source lane: the segment of `width` lanes holding `lane`; out of it, the lane itself
int shfl_source(int op, int lane, int arg, int width) {
    int seg = (32 - width) & 31, b = arg & 31, lo = lane & seg, j, ok;
    int hi = lo | (31 & ~seg);
    switch (op) {
    case W_SHFL_UP: j = lane - b; ok = j >= lo; break;
    case W_SHFL_DOWN: j = lane + b; ok = j <= hi; break;
    case W_SHFL_XOR: j = lane ^ b; ok = j <= hi; break;
    default: j = lo | (b & ~seg); ok = j <= hi; break;
    }
    return ok ? j : lane;
}

// What every lane with the same mask shares: the ballot and the reduction (computed once per exchange).
struct shared_part {
    unsigned mask, ballot;
    uint32_t acc;
    bool valid;
};

void combine(const slot &s, const lane_part &me, unsigned m, shared_part &c) {
    uint32_t acc = me.op == W_AND || me.op == W_MIN ? 0xffffffffu : me.op == W_MIN_S ? 0x7fffffffu
                 : me.op == W_MAX_S ? 0x80000000u : 0u;
    unsigned ballot = 0;
    for (unsigned bits = m; bits; bits &= bits - 1) {
        int l = __builtin_ctz(bits);
        uint32_t v = (uint32_t)s.in[l].value;
        if (v) ballot |= 1u << l;
        switch (me.op) {
        case W_ADD: acc += v; break;
        case W_MIN: acc = v < acc ? v : acc; break;
        case W_MAX: acc = v > acc ? v : acc; break;
        case W_MIN_S: acc = (int32_t)v < (int32_t)acc ? v : acc; break;
        case W_MAX_S: acc = (int32_t)v > (int32_t)acc ? v : acc; break;
        case W_AND: acc &= v; break;
        case W_OR: acc |= v; break;
        case W_XOR: acc ^= v; break;
        }
    }
    c = shared_part{m, ballot, acc, true};
}

uint64_t result(slot &s, unsigned got, unsigned wi, int lane, shared_part &c) {
    const lane_part &me = s.in[lane];
    unsigned m = me.mask & got;
    switch (me.op) {
    case W_SHFL_IDX: case W_SHFL_UP: case W_SHFL_DOWN: case W_SHFL_XOR: {
        int j = shfl_source(me.op, lane, me.arg, me.width);
        if (got >> j & 1) return s.in[j].value;
        note(EXITED_SOURCE, wi * 32 + lane, j, me.pc);  // undefined on the GPU: the lane's own value here
        return me.value;
    }
    case W_ACTIVE: return got;
    case W_SYNC: return 0;
    case W_MATCH_ANY: case W_MATCH_ALL: {
        unsigned eq = 0;
        for (unsigned bits = m; bits; bits &= bits - 1)
            if (s.in[__builtin_ctz(bits)].value == me.value) eq |= 1u << __builtin_ctz(bits);
        if (me.op == W_MATCH_ANY) return eq;
        return eq == m ? (uint64_t)m | (1ull << 32) : 0;
    }
    default: break;
    }
    if (!c.valid || c.mask != m) combine(s, me, m, c);
    switch (me.op) {
    case W_BALLOT: return c.ballot;
    case W_ANY: return c.ballot != 0;
    case W_ALL: return c.ballot == m;
    default: return c.acc;
    }
}

// Every arrived lane's result, then they all go on (`self_lane` is running already); the group is closed.
void complete(slot &s, int gi, unsigned wi, int self_lane) {
    unsigned got = s.g[gi].arrived;
    shared_part c = {0, 0, 0, false};
    for (unsigned bits = got; bits; bits &= bits - 1) {
        int l = __builtin_ctz(bits);
        if (c.valid && s.in[l].op != s.in[__builtin_ctz(got)].op) c.valid = false;  // another op: recompute
        s.out[l] = result(s, got, wi, l, c);
        if (l != self_lane) fiber_at(wi * 32 + l)->wait = FIBER_RUN;
    }
    s.g[gi] = s.g[--s.ngroups];
}
} // namespace

void warp_block_start(unsigned n) {
    for (unsigned wi = 0; wi < 32; wi++) {
        warps[wi].ngroups = 0;
        unsigned have = n <= wi * 32 ? 0 : n - wi * 32;
        warps[wi].absent = have >= 32 ? 0 : ~((1u << have) - 1);
    }
}

void warp_thread_done(unsigned index) { warps[index / 32].absent |= 1u << (index % 32); }

// Nothing can run. First the __activemask groups (the lanes not there went elsewhere: they are not active
// with them); only if there are none, every group whose named lanes will never come, each reported.
bool warp_resolve() {
    for (int pass = 0; pass < 2; pass++) {
        bool any = false;
        for (unsigned wi = 0; wi < 32; wi++) {
            slot &s = warps[wi];
            for (int gi = s.ngroups - 1; gi >= 0; gi--) {
                int first = __builtin_ctz(s.g[gi].arrived);
                if (pass == 0 && s.in[first].op != W_ACTIVE) continue;
                unsigned elsewhere = s.g[gi].named & ~s.g[gi].arrived & ~absent_lanes(wi);
                if (pass == 1 && elsewhere)
                    note(DIVERGENT, wi * 32 + first, __builtin_ctz(elsewhere), s.in[first].pc);
                complete(s, gi, wi, -1);
                any = true;
            }
        }
        if (any) return true;
    }
    return false;
}

void warp_reports() {
    static const char *P = "========= ";
    static int printed;
    std::lock_guard<std::mutex> g(findings_mu);
    for (const finding &f : findings()) {
        memcheck_count("sync");
        if (++printed > 100) continue;
        fflush(stdout);
        if (f.kind == EXITED_SOURCE)
            fprintf(stdout, "%sWarp shuffle from lane %d, which has exited or does not exist: the value is undefined\n",
                    P, f.lane);
        else
            fprintf(stdout, "%sBarrier error detected. %s\n", P,
                    f.kind == DIVERGENT ? "Divergent thread(s) in warp" : "Invalid arguments");
        fprintf(stdout, "%s    at %s\n", P, memcheck_where(f.pc, f.kernel).c_str());
        fprintf(stdout, "%s    by thread (%u,%u,%u) in block (%u,%u,%u)\n", P, f.thread.x, f.thread.y, f.thread.z,
                f.block.x, f.block.y, f.block.z);
        if (f.kind == DIVERGENT)
            fprintf(stdout, "%s    lane %d named in the mask waits at another barrier\n", P, f.lane);
        else if (f.kind == INVALID)
            fprintf(stdout, "%s    the mask does not name the calling lane\n", P);
        fprintf(stdout, "%s\n", P);
        fflush(stdout);
    }
    findings().clear();
}
} // namespace rt

using namespace rt;

uint64_t cudawb::warp_exchange(int op, unsigned mask, uint64_t value, int arg, int width) {
    uintptr_t pc = (uintptr_t)__builtin_return_address(0);
    int idx = fiber_index();
    if (idx < 0) {  // no general scheduler: a block of one thread, or host code; anything else is our bug
        worker *w = self;
        if (w && w->in_kernel && blockDim.x * blockDim.y * blockDim.z > 1) {
            fprintf(stderr, "cudawb: internal error: a warp primitive reached in a kernel the compiler driver "
                            "judged free of them (called through a pointer?); please report it\n");
            abort();
        }
        static __thread slot s;
        s.in[0] = lane_part{value, op, arg, width, 1u, pc};
        shared_part c = {0, 0, 0, false};
        return result(s, 1u, 0, 0, c);
    }
    unsigned wi = (unsigned)idx / 32;
    int lane = idx % 32;
    if (op == W_ACTIVE) mask = ~absent_lanes(wi);
    if (!(mask >> lane & 1)) {
        note(INVALID, (unsigned)idx, lane, pc);
        mask |= 1u << lane;
    }
    slot &s = warps[wi];
    s.in[lane] = lane_part{value, op, arg, width, mask, pc};
    uintptr_t key = op == W_SYNC ? 0 : pc;
    int gi = 0;
    while (gi < s.ngroups && s.g[gi].key != key) gi++;
    if (gi == s.ngroups) s.g[s.ngroups++] = group{key, 0, 0};
    group &g = s.g[gi];
    g.arrived |= 1u << lane;
    g.named |= mask;
    if (!(g.named & ~g.arrived & ~absent_lanes(wi))) complete(s, gi, wi, lane);
    else fiber_wait(FIBER_WARP);
    return s.out[lane];
}
