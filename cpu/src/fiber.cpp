// fiber.cpp: runs the threads of a block that uses __syncthreads as cooperative fibers on one worker thread.
//
// Each GPU thread gets its own small stack; __syncthreads saves the thread's registers and jumps straight to
// the next thread of the block (a hand-written switch of the callee-saved registers: ucontext's swapcontext
// makes a system call per switch and is ~50x slower). When the last thread reaches the barrier, control goes
// back to the scheduler, which starts the next round. A round visits the threads in order (or shuffled).
#include "worker.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

extern "C" void cudawb_switch(void **save_sp, void *next_sp);
extern "C" void cudawb_fiber_trampoline(void);

#if defined(__x86_64__)
// cudawb_switch(save, next): push callee-saved registers, save rsp, load next, pop, return into it.
__asm__(".text\n.p2align 4\n.globl cudawb_switch\n.type cudawb_switch,@function\ncudawb_switch:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  movq %rsp, (%rdi)\n  movq %rsi, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n  ret\n"
        ".size cudawb_switch,.-cudawb_switch\n"
        ".globl cudawb_fiber_trampoline\n.type cudawb_fiber_trampoline,@function\ncudawb_fiber_trampoline:\n"
        "  movq %r13, %rdi\n  callq *%r12\n  ud2\n.size cudawb_fiber_trampoline,.-cudawb_fiber_trampoline\n");
#elif defined(__aarch64__)
__asm__(".text\n.p2align 4\n.globl cudawb_switch\n.type cudawb_switch,%function\ncudawb_switch:\n"
        "  sub sp, sp, #160\n"
        "  stp x19, x20, [sp, #0]\n  stp x21, x22, [sp, #16]\n  stp x23, x24, [sp, #32]\n"
        "  stp x25, x26, [sp, #48]\n  stp x27, x28, [sp, #64]\n  stp x29, x30, [sp, #80]\n"
        "  stp d8, d9, [sp, #96]\n  stp d10, d11, [sp, #112]\n  stp d12, d13, [sp, #128]\n"
        "  stp d14, d15, [sp, #144]\n"
        "  mov x2, sp\n  str x2, [x0]\n  mov sp, x1\n"
        "  ldp x19, x20, [sp, #0]\n  ldp x21, x22, [sp, #16]\n  ldp x23, x24, [sp, #32]\n"
        "  ldp x25, x26, [sp, #48]\n  ldp x27, x28, [sp, #64]\n  ldp x29, x30, [sp, #80]\n"
        "  ldp d8, d9, [sp, #96]\n  ldp d10, d11, [sp, #112]\n  ldp d12, d13, [sp, #128]\n"
        "  ldp d14, d15, [sp, #144]\n"
        "  add sp, sp, #160\n  ret\n.size cudawb_switch,.-cudawb_switch\n"
        ".globl cudawb_fiber_trampoline\n.type cudawb_fiber_trampoline,%function\ncudawb_fiber_trampoline:\n"
        "  mov x0, x20\n  blr x19\n  brk #0\n.size cudawb_fiber_trampoline,.-cudawb_fiber_trampoline\n");
#else
#error "the CPU backend's fibers support x86-64 and aarch64"
#endif

namespace rt {
static __thread cudawb::task *fiber_task;

// The scheduler's state for the running block, in one thread-local struct: the barrier reads it straight
// off the thread pointer, with no pointer to chase.
struct schedule {
    fiber **order;  // this round's live fibers, in the order they run
    int pos, nlive, in_fiber;
    void *sched_sp;
};
static __thread schedule S;

// Builds the stack a new fiber starts from: cudawb_switch "returns" into the trampoline, which calls
// entry(arg) with the registers the switch restores.
static void *initial_stack(char *top, void (*entry)(void *), void *arg) {
    top = (char *)((uintptr_t)top & ~(uintptr_t)15);
#if defined(__x86_64__)
    void **sp = (void **)(top - 72);  // r15 r14 r13 r12 rbx rbp ret: rsp is 16-aligned at the call
    sp[0] = sp[1] = 0;
    sp[2] = arg;              // r13
    sp[3] = (void *)entry;    // r12
    sp[4] = sp[5] = 0;
    sp[6] = (void *)cudawb_fiber_trampoline;
    return sp;
#else
    void **sp = (void **)(top - 160);
    for (int i = 0; i < 20; i++) sp[i] = 0;
    sp[0] = (void *)entry;    // x19
    sp[1] = arg;              // x20
    sp[11] = (void *)cudawb_fiber_trampoline;  // x30
    return sp;
#endif
}

static void ensure_stacks(worker *w, unsigned n) {
    if (w->nstacks >= n) return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t each = (cfg.stack + page - 1) / page * page + page;  // + a guard page below each stack
    if (w->stacks) munmap(w->stacks, w->stack_size * w->nstacks);
    free(w->fibers);
    free(w->fiber_jbs);
    free(w->order);
    w->stacks = (char *)mmap(NULL, each * 1024, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                             -1, 0);
    if (w->stacks == MAP_FAILED) { fprintf(stderr, "cudawb: cannot map fiber stacks\n"); abort(); }
    for (int i = 0; i < 1024; i++) mprotect(w->stacks + i * each, page, PROT_NONE);
    w->stack_size = each;
    w->nstacks = 1024;
    w->fibers = (fiber *)calloc(1024, sizeof(fiber));
    w->fiber_jbs = (sigjmp_buf *)calloc(1024, sizeof(sigjmp_buf));
    w->order = (fiber **)calloc(1024, sizeof(fiber *));
}

bool fiber_stack_overflow(worker *w, uintptr_t addr) {
    return w->stacks && addr >= (uintptr_t)w->stacks && addr < (uintptr_t)w->stacks + w->stack_size * w->nstacks;
}

// Switches from the running fiber to the next one of this round, or back to the scheduler. This is the hot
// path of every barrier: a few loads and the register switch.
static inline __attribute__((always_inline)) void pass_on(void **save) {
    int pos = ++S.pos;
    if (pos < S.nlive) {
        fiber *next = S.order[pos];
        threadIdx = next->tid;
        cudawb_switch(save, next->sp);
    } else {
        cudawb_switch(save, S.sched_sp);
    }
}

static void fiber_main(void *arg) {
    worker *w = self;
    fiber *f = &w->fibers[(intptr_t)arg];
    if (!cfg.memcheck) fiber_task->run_thread();
    else if (sigsetjmp(w->fiber_jbs[(intptr_t)arg], 0) == 0) fiber_task->run_thread();
    f->done = 1;
    void *dead;
    pass_on(&dead);
    abort();  // never resumed
}

void fiber_abort_thread(worker *w) { siglongjmp(w->fiber_jbs[S.order[S.pos] - w->fibers], 1); }

void fiber_run_block(worker *w, cudawb::task *t, unsigned n) {
    ensure_stacks(w, n);
    fiber_task = t;
    dim3 b = blockDim;
    uint3 tid = {0, 0, 0};
    for (unsigned i = 0; i < n; i++) {
        fiber *f = &w->fibers[i];
        f->done = 0;
        f->tid = tid;
        if (++tid.x == b.x) { tid.x = 0; if (++tid.y == b.y) { tid.y = 0; tid.z++; } }
        // stagger the stack tops: stacks a multiple of 4 KiB apart would all land in the same cache sets
        char *top = w->stacks + (i + 1) * w->stack_size - (i * 5 * 64) % 4096;
        f->sp = initial_stack(top, fiber_main, (void *)(intptr_t)i);
    }
    w->in_fiber = S.in_fiber = 1;
    S.order = w->order;
    for (uint64_t round = 0;; round++) {
        int live = 0;
        for (unsigned i = 0; i < n; i++)
            if (!w->fibers[i].done) w->order[live++] = &w->fibers[i];
        if (!live) break;
        if (cfg.shuffle) shuffle(w->order, live, (uint64_t)cfg.shuffle * 0x9E3779B97F4A7C15ull ^ (w->block << 20) ^ round);
        S.nlive = live;
        S.pos = 0;
        threadIdx = w->order[0]->tid;
        cudawb_switch(&S.sched_sp, w->order[0]->sp);
    }
    w->in_fiber = S.in_fiber = 0;
}

void fiber_reset() { S.in_fiber = 0; }

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

void __syncthreads(void) {
    if (__builtin_expect(!S.in_fiber, 0)) {
        worker *w = self;
        if (w && w->in_kernel && blockDim.x * blockDim.y * blockDim.z > 1) {
            fprintf(stderr, "cudawb: internal error: __syncthreads reached in a kernel the compiler driver "
                            "judged barrier-free (called through a pointer?); please report it\n");
            abort();
        }
        return;
    }
    pass_on(&S.order[S.pos]->sp);
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
