// fiber.cpp: runs the threads of a block that uses __syncthreads as cooperative fibers on one worker thread.
//
// Each GPU thread gets its own small stack; __syncthreads saves the thread's registers and jumps straight to
// the next thread of the block (a hand-written switch of the callee-saved registers: ucontext's swapcontext
// makes a system call per switch and is ~50x slower). A round visits the threads in order (or shuffled);
// when the last thread reaches the barrier it starts the next round itself, with the first thread. The
// scheduler gets control back only when the order must change: a thread finished, or shuffling is on.
#include "worker.h"
#include "../include/cudawb/async.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

extern "C" void cudawb_switch(void **save_sp, void *next_sp);
extern "C" void cudawb_start(void **save_sp, void *top, void (*entry)(void *), void *arg);

// cudawb_switch(save, next): push the callee-saved registers, save the stack pointer, load next's, pop its
// registers and go back to where it called the switch. cudawb_start(save, top, entry, arg) saves the same
// frame, then calls entry(arg) on the empty stack at top: a new fiber needs no prepared frame. The frame
// pointer is cleared so that a debugger's backtrace ends at the fiber's entry.
// On x86-64 the switch leaves with an indirect jump, not `ret`: a `ret` is predicted from the return-address
// stack, i.e. as a return to where the *previous* thread called __syncthreads, and fails whenever the next
// thread waits at another barrier (the first one of a kernel, then those of its loop); the jump is predicted
// from the branch history, which learns the pattern (bench/'s one-element reduction: 18.6M -> 23.5M
// elements/s on a 2-core AMD EPYC VM). aarch64 keeps `ret`: a `br` to a return address faults under BTI.
#if defined(__x86_64__)
__asm__(".text\n.p2align 4\n.globl cudawb_switch\n.type cudawb_switch,@function\ncudawb_switch:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  movq %rsp, (%rdi)\n  movq %rsi, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n  popq %rcx\n  jmp *%rcx\n"
        ".size cudawb_switch,.-cudawb_switch\n"
        ".p2align 4\n.globl cudawb_start\n.type cudawb_start,@function\ncudawb_start:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  movq %rsp, (%rdi)\n  movq %rsi, %rsp\n"
        "  xorl %ebp, %ebp\n  movq %rcx, %rdi\n  callq *%rdx\n  ud2\n"
        ".size cudawb_start,.-cudawb_start\n");
#elif defined(__aarch64__)
#define CUDAWB_SAVE_FRAME                                                                                   \
    "  sub sp, sp, #160\n"                                                                                  \
    "  stp x19, x20, [sp, #0]\n  stp x21, x22, [sp, #16]\n  stp x23, x24, [sp, #32]\n"                     \
    "  stp x25, x26, [sp, #48]\n  stp x27, x28, [sp, #64]\n  stp x29, x30, [sp, #80]\n"                     \
    "  stp d8, d9, [sp, #96]\n  stp d10, d11, [sp, #112]\n  stp d12, d13, [sp, #128]\n"                     \
    "  stp d14, d15, [sp, #144]\n"                                                                          \
    "  mov x9, sp\n  str x9, [x0]\n  mov sp, x1\n"
__asm__(".text\n.p2align 4\n.globl cudawb_switch\n.type cudawb_switch,%function\ncudawb_switch:\n"
        CUDAWB_SAVE_FRAME
        "  ldp x19, x20, [sp, #0]\n  ldp x21, x22, [sp, #16]\n  ldp x23, x24, [sp, #32]\n"
        "  ldp x25, x26, [sp, #48]\n  ldp x27, x28, [sp, #64]\n  ldp x29, x30, [sp, #80]\n"
        "  ldp d8, d9, [sp, #96]\n  ldp d10, d11, [sp, #112]\n  ldp d12, d13, [sp, #128]\n"
        "  ldp d14, d15, [sp, #144]\n"
        "  add sp, sp, #160\n  ret\n.size cudawb_switch,.-cudawb_switch\n"
        ".p2align 4\n.globl cudawb_start\n.type cudawb_start,%function\ncudawb_start:\n"
        CUDAWB_SAVE_FRAME
        "  mov x29, xzr\n  mov x0, x3\n  blr x2\n  brk #0\n.size cudawb_start,.-cudawb_start\n");
#undef CUDAWB_SAVE_FRAME
#else
#error "the CPU backend's fibers support x86-64 and aarch64"
#endif

namespace rt {
static __thread cudawb::task *fiber_task;

// The scheduler's state for the running block, in one thread-local struct: the barrier reads it straight
// off the thread pointer, with no pointer to chase. A round's fibers are linked in running order; the last
// one links back to the first (the next round, when the order stays) or to `sched`, which stands for the
// scheduler: it gets control only when the order must change (a fiber finished, or shuffling is on).
struct schedule {
    fiber *cur;   // the running fiber; NULL outside fibers
    fiber *last;  // the round's last fiber
    unsigned finished;  // threads of the block that returned
    fiber sched;  // sched.sp: where the scheduler waits for the round to end
    int general;  // the general scheduler runs this block (warp primitives)
    unsigned n;   // threads of the running block
    fiber *fibers;
    fiber **order;      // general scheduler: this pass's order, and how far the pass got in it
    int pos, live;
};
static __thread schedule S;

// Stacks for n fibers (rounded up to a power of two, so that growing is rare; a cooperative launch has a
// worker per block, so a small block must not map stacks for 1024 threads).
static void ensure_stacks(worker *w, unsigned n) {
    if (w->nstacks >= n) return;
    unsigned count = 32;
    while (count < n) count *= 2;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t each = (cfg.stack + page - 1) / page * page + page;  // + a guard page below each stack
    if (w->stacks) munmap(w->stacks, w->stack_size * w->nstacks);
    free(w->fibers);
    free(w->fiber_jbs);
    free(w->order);
    w->stacks = (char *)mmap(NULL, each * count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                             -1, 0);
    if (w->stacks == MAP_FAILED) { fprintf(stderr, "cudawb: cannot map fiber stacks\n"); abort(); }
    if (!w->no_guard)
        for (unsigned i = 0; i < count; i++) mprotect(w->stacks + i * each, page, PROT_NONE);
    w->stack_size = each;
    w->nstacks = count;
    w->fibers = (fiber *)calloc(count, sizeof(fiber));
    w->fiber_jbs = (sigjmp_buf *)calloc(count, sizeof(sigjmp_buf));
    w->order = (fiber **)calloc(count, sizeof(fiber *));
    w->fiber_dims = dim3{0, 0, 0};
}

void fiber_free(worker *w) {
    if (w->stacks) munmap(w->stacks, w->stack_size * w->nstacks);
    free(w->fibers);
    free(w->fiber_jbs);
    free(w->order);
}

bool fiber_stack_overflow(worker *w, uintptr_t addr) {
    return w->stacks && addr >= (uintptr_t)w->stacks && addr < (uintptr_t)w->stacks + w->stack_size * w->nstacks;
}

static void fiber_main(void *arg);

// Continues fiber f where it stopped, or starts it on its empty stack. The hot path of every barrier:
// a few loads and the register switch.
static inline __attribute__((always_inline)) void switch_to(void **save, fiber *f) {
    S.cur = f;
    threadIdx = f->tid;
    if (__builtin_expect(f->sp != NULL, 1)) cudawb_switch(save, f->sp);
    else cudawb_start(save, f->top, fiber_main, f);
}

static void fiber_main(void *arg) {
    fiber *f = (fiber *)arg;
    worker *w = self;
    if (!cfg.memcheck) fiber_task->run_thread();
    else if (sigsetjmp(w->fiber_jbs[f - w->fibers], 0) == 0) fiber_task->run_thread();
    f->done = 1;
    S.finished++;
    if (S.general) warp_thread_done((unsigned)(f - S.fibers));
    S.last->next = &S.sched;  // this round ends at the scheduler, which leaves f out of the next one
    switch_to(&f->sp, f->next);
    abort();  // never resumed
}

void fiber_abort_thread(worker *w) { siglongjmp(w->fiber_jbs[S.cur - w->fibers], 1); }

// Every fiber of the block as not started. Thread indices and stack tops depend only on the block's shape:
// they are recomputed only when it changes, not for every block.
static void prepare_fibers(worker *w, unsigned n, unsigned stride) {
    dim3 b = blockDim;
    if (w->fiber_dims.x != b.x || w->fiber_dims.y != b.y || w->fiber_dims.z != b.z || w->fiber_stride != stride) {
        for (unsigned i = 0; i < n; i++) {
            unsigned t = i * stride;
            w->fibers[i].tid = uint3{t % b.x, t / b.x % b.y, t / (b.x * b.y)};
            // stagger the stack tops: stacks a multiple of 4 KiB apart would all land in the same cache sets
            char *top = w->stacks + (i + 1) * w->stack_size - (i * 5 * 64) % 4096;
            w->fibers[i].top = (char *)((uintptr_t)top & ~(uintptr_t)15);
        }
        w->fiber_dims = b;
        w->fiber_stride = stride;
    }
    for (unsigned i = 0; i < n; i++) {
        w->fibers[i].sp = NULL;
        w->fibers[i].done = 0;
        w->fibers[i].wait = FIBER_RUN;
    }
}

// This round's order: the fibers still running, in thread order (shuffled under CUDAWB_SHUFFLE).
static int order_live(worker *w, unsigned n, uint64_t round) {
    int live = 0;
    for (unsigned i = 0; i < n; i++)
        if (!w->fibers[i].done) w->order[live++] = &w->fibers[i];
    if (cfg.shuffle) shuffle(w->order, live, (uint64_t)cfg.shuffle * 0x9E3779B97F4A7C15ull ^ (w->block << 20) ^ round);
    return live;
}

// Links this round's fibers in order; the last one leads back to the first when the next round can run in
// the same order without the scheduler (one fiber alone would switch to itself: it goes through it).
static void link_round(fiber **order, int live) {
    for (int i = 0; i + 1 < live; i++) order[i]->next = order[i + 1];
    S.last = order[live - 1];
    S.last->next = !cfg.shuffle && live > 1 ? order[0] : &S.sched;
}

// The general scheduler, for kernels with warp primitives: a fiber that waits (at __syncthreads or a warp
// exchange) goes back to it, and it runs whatever can run, in thread order (shuffled under CUDAWB_SHUFFLE).
// When nothing can: if every live thread waits at __syncthreads, they all go on; otherwise the pending warp
// exchanges are completed with the lanes that came (warp.cpp reports the lanes that diverged).
static void run_general(worker *w, unsigned n) {
    for (unsigned i = 0; i < n; i++) w->fibers[i].next = &S.sched;
    S.last = &S.sched;
    S.order = w->order;
    for (uint64_t pass = 0; S.finished < n; pass++) {
        S.live = order_live(w, n, pass);
        S.pos = 0;
        int ran = 0, at_block = 0;
        // a waiting fiber hands over to the next runnable one of the pass itself (fiber_wait); the
        // scheduler gets control back when the pass ends or a fiber finishes
        while (S.pos < S.live) {
            fiber *f = w->order[S.pos++];
            if (f->done || f->wait != FIBER_RUN) continue;
            switch_to(&S.sched.sp, f);
            ran = 1;
        }
        if (ran || S.finished == n) continue;
        for (unsigned i = 0; i < n; i++) at_block += !w->fibers[i].done && w->fibers[i].wait == FIBER_BLOCK;
        if ((unsigned)at_block == n - S.finished) {
            for (unsigned i = 0; i < n; i++) w->fibers[i].wait = FIBER_RUN;
        } else if (!warp_resolve()) {
            bool awaits = false;
            for (unsigned i = 0; i < n; i++) awaits |= !w->fibers[i].done && w->fibers[i].wait == FIBER_AWAIT;
            if (awaits) {
                // the GPU would wait for ever: say where instead of hanging
                fprintf(stderr, "cudawb: every thread of block %llu still running waits (at a cuda::barrier or "
                        "pipeline wait, or __syncthreads) for an arrival no thread will make: on the GPU the "
                        "kernel would hang\n", (unsigned long long)w->block);
                abort();
            }
            fprintf(stderr, "cudawb: internal error: no GPU thread of the block can run; please report it\n");
            abort();
        }
    }
}

// Runs the block's threads round by round. Without shuffling, the scheduler sees only the rounds in which
// a thread finished: the other rounds follow one another straight from fiber to fiber.
void fiber_run_block(worker *w, cudawb::task *t, unsigned n, bool general, unsigned stride) {
    ensure_stacks(w, n);
    prepare_fibers(w, n, stride);
    fiber_task = t;
    w->in_fiber = 1;
    S.finished = 0;
    S.general = general;
    S.n = n;
    S.fibers = w->fibers;
    if (general) {
        warp_block_start(n);
        run_general(w, n);
    }
    for (uint64_t round = 0; S.finished < n; round++) {
        int live = order_live(w, n, round);
        link_round(w->order, live);
        switch_to(&S.sched.sp, w->order[0]);
    }
    w->in_fiber = 0;
    S.cur = NULL;
}

int fiber_index() { return S.cur && S.general ? (int)(S.cur - S.fibers) : -1; }
fiber *fiber_at(unsigned index) { return index < S.n ? &S.fibers[index] : NULL; }
void fiber_wait(int what) {
    fiber *cur = S.cur;
    cur->wait = what;
    while (S.pos < S.live) {
        fiber *f = S.order[S.pos++];
        if (f->done || f->wait != FIBER_RUN) continue;
        if (f != cur) switch_to(&cur->sp, f);
        return;
    }
    cudawb_switch(&cur->sp, S.sched.sp);
}

void fiber_reset() { S.cur = NULL; }


// Fisher-Yates with a small xorshift generator: the same seed gives the same schedule.
template <class T> void shuffle(T *v, int n, uint64_t seed) {
    uint64_t x = seed | 1;
    for (int i = n - 1; i > 0; i--) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        int j = (int)(x % (uint64_t)(i + 1));
        T tmp = v[i]; v[i] = v[j]; v[j] = tmp;
    }
}
template void shuffle<int>(int *, int, uint64_t);
template void shuffle<fiber *>(fiber **, int, uint64_t);
} // namespace rt

using namespace rt;

static inline __attribute__((always_inline)) void barrier(void) {
    fiber *cur = S.cur;
    if (__builtin_expect(cur == NULL, 0)) {
        worker *w = self;
        if (w && w->in_kernel && blockDim.x * blockDim.y * blockDim.z > 1) {
            fprintf(stderr, "cudawb: internal error: __syncthreads reached in a kernel the compiler driver "
                            "judged barrier-free (called through a pointer?); please report it\n");
            abort();
        }
        return;
    }
    if (S.general) fiber_wait(FIBER_BLOCK);
    else switch_to(&cur->sp, cur->next);
}

// under racecheck the barrier is noted first (src/racecheck.cpp); a separate function, reached by a tail
// call, so that the plain barrier keeps its frameless code (a call in line cost 17 instructions per barrier)
static void __attribute__((noinline, cold)) race_barrier_then_wait(void) {
    cudawb::race_barrier();
    barrier();
}

void __syncthreads(void) {
    if (__builtin_expect(cudawb::shared_checks == cudawb::SH_RACECHECK, 0)) return race_barrier_then_wait();
    barrier();
}

// Each thread adds its vote before the barrier and takes it back after the second one, so the sum is
// complete when read and back to zero before the next use, without a thread in charge of resetting it.
int __syncthreads_count(int predicate) {
    worker *w = self;
    int mine = predicate != 0;
    if (w) w->acc += mine;
    __syncthreads();
    int total = w ? w->acc : mine;
    __syncthreads();
    if (w) w->acc -= mine;
    return total;
}
int __syncthreads_and(int predicate) {
    return __syncthreads_count(predicate) == (int)(blockDim.x * blockDim.y * blockDim.z);
}
int __syncthreads_or(int predicate) { return __syncthreads_count(predicate) != 0; }

// cuda::barrier and cuda::pipeline waits (include/cudawb/async.h): the thread sleeps until a thread of its
// block completes something (a barrier's phase, a pipeline's stage) and wakes every sleeper, which then
// looks again at what it waits for.
void cudawb_await(void) {
    if (!S.cur || !S.general) {
        fprintf(stderr, "cudawb: internal error: a cuda::barrier or pipeline wait in a kernel the compiler driver "
                        "judged not to wait (called through a pointer?); please report it\n");
        abort();
    }
    fiber_wait(FIBER_AWAIT);
}

void cudawb_await_wake(void) {
    if (!S.cur) return;
    for (unsigned i = 0; i < S.n; i++)
        if (S.fibers[i].wait == FIBER_AWAIT) S.fibers[i].wait = FIBER_RUN;
}
