// worker.h: the state of one worker thread while it runs blocks of a kernel (launch.cpp, fiber.cpp, checker.cpp).
#ifndef CUDAWB_WORKER_H
#define CUDAWB_WORKER_H
#include "internal.h"
#include <atomic>
#include <setjmp.h>
#include <string>
#include <vector>

namespace rt {
struct kernel_run {
    cudawb::launch_desc *d;
    cudawb::task *t;
    uint64_t total, chunk;
    std::atomic<uint64_t> next;
    std::atomic<int> fault;  // 0, or the sticky error the kernel ends with (700, 710, 719)
};

struct fault_record {  // a memcheck finding, analysed after the kernel (no locks in the signal handler)
    uintptr_t addr, pc;
    int write;
    uint3 block, thread;
    unsigned size = 0;     // bytes of the access, where known (a misaligned one)
    bool misaligned = false;
};

// what a fiber waits for (the general scheduler of fiber.cpp): nothing, __syncthreads, a warp exchange, or a
// cuda::barrier or pipeline of its block (cudawb_await: until another thread wakes it)
enum { FIBER_RUN, FIBER_BLOCK, FIBER_WARP, FIBER_AWAIT };
struct fiber {  // the barrier path reads the running fiber's next, and the next fiber's sp and tid
    void *sp;     // where it stopped; NULL before it started
    fiber *next;  // the fiber that runs after it in this round (fiber.cpp)
    uint3 tid;
    int done;
    char *top;    // its empty stack
    int wait;     // FIBER_RUN, or the barrier it waits at (general scheduler only)
};

struct worker {
    int id;
    kernel_run *k;
    volatile int in_kernel, in_fiber;
    uint64_t block;  // linear index of the running block
    sigjmp_buf block_jb, thread_jb;
    std::string out, err;  // device printf and assert text of the running block
    std::vector<std::pair<uint64_t, std::string>> outs, errs;
    std::vector<fault_record> faults;
    // fibers of the running block (fiber.cpp)
    char *stacks;
    size_t stack_size, nstacks;
    fiber *fibers;
    dim3 fiber_dims;  // the block shape the fibers' tid and top were computed for
    unsigned fiber_stride;  // ... and the threads between two fibers
    sigjmp_buf *fiber_jbs;  // memcheck: where a faulting GPU thread is abandoned
    fiber **order;  // a round's running order (fiber.cpp's scheduler state lives in its own TLS)
    int acc;  // __syncthreads_count accumulator
    bool no_guard;  // its fiber stacks have no guard pages (a large cooperative grid: see grid.cpp)
};
extern __thread worker *self;
void run_block(worker *w, kernel_run *k, uint64_t b);  // launch.cpp
worker *new_worker(int id);
void run_cooperative(kernel_run *k, worker *host);    // grid.cpp: every block at once, for grid.sync()
// n fibers; fiber i runs as thread i * stride of the block (stride 32: a warp's lockstep copy each)
void fiber_run_block(worker *w, cudawb::task *t, unsigned n, bool general, unsigned stride);
// for the warp primitives (warp.cpp), in a block run by the general scheduler:
int fiber_index();               // the running fiber's linear thread index, -1 outside fibers
fiber *fiber_at(unsigned index); // a fiber of the running block, NULL past its last thread
void fiber_wait(int what);       // the running fiber waits (FIBER_WARP) until another sets its wait to RUN
void warp_block_start(unsigned n); // forget the previous block's warp exchanges; n threads
void warp_thread_done(unsigned index);  // a thread of the block returned (or was abandoned)
bool warp_resolve();             // nothing can run: complete the pending warp exchanges (false if none)
void warp_reports();             // after a kernel: synccheck findings, as memcheck_kernel_reports does
bool fiber_stack_overflow(worker *w, uintptr_t addr);
[[noreturn]] void fiber_abort_thread(worker *w);
template <class T> void shuffle(T *v, int n, uint64_t seed);
void fiber_free(worker *w);  // a worker's stacks, when it is deleted (grid.cpp)
void fiber_reset();  // after a block was abandoned (longjmp out of a fiber)
std::vector<worker *> &all_workers();
kernel_run *last_kernel();
std::string memcheck_where(uintptr_t pc, const char *kernel);  // "kernel in file.cu:12" (checker.cpp)
} // namespace rt
#endif
