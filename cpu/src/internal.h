// internal.h: what the runtime's modules share (state, helpers); nothing here is visible to student code.
#ifndef CUDAWB_INTERNAL_H
#define CUDAWB_INTERNAL_H
#include "../include/cuda_runtime.h"
#include <stdint.h>
#include <stdio.h>

namespace rt {
// settings read once from the environment (config.cpp)
enum { SCHEDULE_ISSUE, SCHEDULE_REVERSE, SCHEDULE_SHUFFLE };
struct config {
    size_t capacity;   // CUDAWB_CPU_MEMORY: bytes of simulated device memory
    int threads;       // CUDAWB_CPU_THREADS: worker threads running blocks (default: all cores)
    int memcheck;      // CUDAWB_MEMCHECK=1: the compute-sanitizer emulation (set by bin/compute-sanitizer)
    int shuffle;       // CUDAWB_SHUFFLE=seed: run each block's threads in a random order (races show up)
    int schedule;      // CUDAWB_SCHEDULE: the order independent streams' work runs in (stream.cpp)
    uint64_t schedule_seed;  // ... its seed, for shuffle:SEED
    size_t stack;      // CUDAWB_CPU_STACK: bytes of stack per GPU thread when a block uses barriers
    int no_device;     // CUDA_VISIBLE_DEVICES not naming device 0 ("", -1, 3): no GPU here (100)
    int memcheck_leaks;       // CUDAWB_MEMCHECK_LEAKS: list live allocations at exit (--leak-check full)
    const char *memcheck_log; // CUDAWB_MEMCHECK_LOG: one line per memcheck error (counted by the wrapper)
    int report_api_errors;    // 1 unless the sanitizer runs with --report-api-errors none
    int lockstep;             // CUDAWB_LOCKSTEP=0: kernels never run their lockstep copy (cpu/tools/lockstep.h)
    int racecheck;            // CUDAWB_RACECHECK=1: bin/compute-sanitizer --tool racecheck (racecheck.cpp)
    int race_report;          // CUDAWB_RACECHECK_REPORT: 1 analysis (default), 2 hazard, 3 all
};
extern config cfg;
void init();  // idempotent; reads the environment, installs the fault handler and the exit hooks

// errors (error.cpp)
cudaError_t enter(const char *fn);               // 0, or the error this call must return (already recorded)
cudaError_t context_error();                     // what enter() would return, recording nothing (libraries)
cudaError_t fail(const char *fn, cudaError_t e); // records e as the last error (and for the sanitizer)
void set_sticky(cudaError_t e);                  // a kernel fault: every later call returns e
cudaError_t sticky_error();
void device_reset_errors();
int device_attribute(enum cudaDeviceAttr a);     // the H200's answer (device.cpp), untraced
int kernel_image(int *binary, int *ptx);        // arch.cpp: 0 when the build has code for 9.0, else 209

// allocations (alloc.cpp)
enum kind { DEVICE = 1, MANAGED = 2, PINNED = 4, REGISTERED = 8 };  // REGISTERED: cudaHostRegister's
struct alloc {
    uintptr_t base;
    size_t size;
    int kind;
    const char *fn;
    const char *file;
    int line;
    uintptr_t span_lo, span_hi;  // pages this allocation owns
    bool resident;               // managed: the device has touched it, so cudaMemGetInfo counts it
};
const alloc *find(const void *p);           // live allocation containing p, or NULL
bool in_device_space(const void *p);        // inside the device or managed address range (live or not)
bool check_range(const void *p, size_t n);  // [p, p+n) inside one live device/managed allocation
void open_device();                         // device pages readable/writable (kernels and copies running)
void close_device();                        // and back to PROT_NONE: host dereferences fault
void free_everything();                     // cudaDeviceReset
void live_allocations(void (*fn)(const alloc *, void *), void *ctx);
size_t resident_bytes();                    // device bytes cudaMemGetInfo counts as used
void make_resident(const void *p);          // the managed allocation holding p is on the device from now on
void register_symbol(const void *p, size_t n);
cudaError_t allocate(void **out, size_t size, int kind, const char *fn, const cudawb_site &at);
cudaError_t allocate_pinned(void **out, size_t size, const char *fn, const cudawb_site &at);
bool release(void *p, int kinds);
int register_host(void *p, size_t n, const cudawb_site &at);  // 0, or 712 when part of it is already known
bool unregister_host(void *p);                               // false when p does not start a registered range
size_t accounted(size_t size);              // what an allocation of size bytes takes of the capacity
bool reserve_library(size_t bytes);         // a library's own device memory (never listed as an allocation)
void release_library(size_t bytes);         // ... given back

// copies made by a library (cuBLAS) rather than by the program (copy.cpp): cudaMemcpy2D(Async)'s checks and
// queueing with kind cudaMemcpyDefault, but no last error and nothing for the memory checker, and the
// context's own state is the caller's to check (context_error)
cudaError_t library_copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                            size_t height, cudaStream_t stream, bool async);

// queue and synchronization (stream.cpp)
struct op {
    virtual ~op() {}
    virtual void run() = 0;
    cudaStream_t stream = 0;
    uint64_t seq = 0;        // issue order
    uint64_t waits_for = 0;  // cudaStreamWaitEvent: the seq of the event record this op waits for
    // what it is as a node of a captured graph (cudaGraphNodeType): kernels and cuBLAS calls are kernels
    virtual int graph_node_type() const { return 0; }
};
void enqueue(op *o);
cudaError_t flush();                        // runs everything queued; the sticky error if a kernel faulted
cudaError_t flush_stream(cudaStream_t s);   // runs what stream s's queued work needs (stream sync)
bool valid_stream(cudaStream_t s);

// kernels (launch.cpp)
cudaError_t run_kernel(cudawb::launch_desc *d, cudawb::task *t);  // at execution time
void workers_shutdown();

// memcheck (checker.cpp)
void memcheck_api_error(const char *fn, cudaError_t e);
void memcheck_count(const char *what);
// A library kernel (cuBLAS) handed an address the GPU cannot reach: reported as compute-sanitizer reports
// the fault inside the library's kernel.
void memcheck_library_fault(const void *addr);
void memcheck_library_overrun(const void *addr, bool write, unsigned size, const alloc *a);  // blas_operand.h
void memcheck_leaks();
void install_fault_handler();
void memcheck_kernel_reports();
void *memcheck_dynamic_shared();  // the launch's dynamic shared memory, ending at a guard page (memcheck)
void race_kernel_reports();       // racecheck.cpp: after each kernel, its hazards
// racecheck.cpp: an access to [a, a+size) of the shared variable [base, base+bytes) by the running thread
void race_access(uintptr_t a, size_t size, uintptr_t base, size_t bytes, int kind, const char *file, int line);
// ... through a volatile pointer: in whichever shared variable the worker has seen that holds a
void race_access_pointer(uintptr_t a, size_t size, int kind, const char *file, int line);

const char *basename_of(const char *path);
} // namespace rt
#endif
