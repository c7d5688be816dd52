// stream.cpp: the work queue, streams, events and the synchronizing calls.
//
// Launches, async copies, memsets, event records and host functions are queued in issue order and run only
// when a synchronizing call needs them, as if the GPU had not started yet: a host read of managed or pinned
// memory before synchronizing sees the old data every time. cudaDeviceSynchronize runs everything; a stream
// or event synchronization runs only what that stream (or event) depends on: its own earlier work, the
// legacy default stream's implicit ordering with blocking streams, and cudaStreamWaitEvent. So waiting on
// the wrong stream leaves the data stale, as it does on a GPU.
#include "graph.h"
#include <algorithm>
#include <deque>
#include <map>
#include <vector>
#include <mutex>
#include <set>
#include <time.h>

struct CUstream_st { unsigned int flags; int priority; };
struct CUevent_st {
    unsigned int flags;
    int state;  // 0 never recorded, 1 recorded and queued, 2 done
    double when;
    uint64_t record_seq;  // the queued record operation
};

namespace rt {
struct queues {  // never destroyed (exit hooks may still synchronize)
    std::deque<op *> queue;
    std::recursive_mutex mu;
    std::set<cudaStream_t> streams;
    std::set<cudaEvent_t> events;
};
static queues &Q() {
    static queues *q = new queues;
    return *q;
}
static int flushing;
static uint64_t next_seq = 1;

bool valid_stream(cudaStream_t s) {
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    return s == 0 || s == cudaStreamLegacy || s == cudaStreamPerThread || Q().streams.count(s);
}

void enqueue(op *o) {
    if (capture_take(o)) return;  // a graph node instead (capture.cpp)
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    o->seq = next_seq++;
    Q().queue.push_back(o);
}

static bool is_legacy(cudaStream_t s) { return s == 0 || s == cudaStreamLegacy; }
static bool is_blocking(cudaStream_t s) { return !is_legacy(s) && (s == cudaStreamPerThread || !(s->flags & cudaStreamNonBlocking)); }
bool blocking_stream(cudaStream_t s) { return is_blocking(s); }
// Work on a and later work on b are ordered although they are different streams: one is the legacy
// default stream and the other a blocking stream.
static bool legacy_tied(cudaStream_t a, cudaStream_t b) {
    return (is_legacy(a) && is_blocking(b)) || (is_blocking(a) && is_legacy(b));
}

// The order a flush runs its operations in. In issue order by default; under CUDAWB_SCHEDULE=reverse or
// shuffle:SEED in another order that keeps only what CUDA promises: each stream's own order, the legacy
// default stream's ordering with blocking streams, and cudaStreamWaitEvent. On a GPU independent streams
// run concurrently, so a program that relies on issue order across streams has a race; these orders show it.
// Each step runs, among the operations whose predecessors have all run, the latest issued (reverse) or a
// random one (shuffle, the same for the same seed).
static void reorder(std::deque<op *> &run) {
    size_t n = run.size();
    std::vector<std::vector<size_t>> after(n);  // after[i]: the operations that must wait for i
    std::vector<int> waiting(n, 0);             // how many of i's predecessors have not run yet
    std::map<cudaStream_t, size_t> last;        // each stream's latest operation so far
    auto edge = [&](size_t from, size_t to) { after[from].push_back(to); waiting[to]++; };
    for (size_t i = 0; i < n; i++) {
        cudaStream_t s = is_legacy(run[i]->stream) ? 0 : run[i]->stream;
        auto mine = last.find(s);
        if (mine != last.end()) edge(mine->second, i);
        for (auto &l : last)  // the legacy stream waits for the blocking streams, and they for it
            if (legacy_tied(l.first, s)) edge(l.second, i);
        if (run[i]->waits_for)
            for (size_t j = 0; j < i; j++)
                if (run[j]->seq == run[i]->waits_for) edge(j, i);
        last[s] = i;
    }
    std::vector<size_t> ready;
    for (size_t i = 0; i < n; i++)
        if (!waiting[i]) ready.push_back(i);
    uint64_t rng = cfg.schedule_seed * 0x9E3779B97F4A7C15ull + n;
    std::deque<op *> order;
    while (!ready.empty()) {
        size_t k = ready.size() - 1;  // reverse: ready stays sorted, so the latest is last
        if (cfg.schedule == SCHEDULE_SHUFFLE) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            k = rng % ready.size();
        }
        size_t i = ready[k];
        ready.erase(ready.begin() + k);
        order.push_back(run[i]);
        for (size_t j : after[i])
            if (!--waiting[j]) ready.insert(std::lower_bound(ready.begin(), ready.end(), j), j);
    }
    run.swap(order);
}

// Runs the queued operations marked in `needed`, in the schedule's order (issue order by default), and drops them from the queue; after a kernel
// fault the rest of them are dropped unrun (the sticky error says why).
static cudaError_t run_marked(const std::vector<bool> &needed) {
    if (flushing) return sticky_error();  // a host function calling back into CUDA
    flushing = 1;
    std::deque<op *> keep, run;
    for (size_t i = 0; i < Q().queue.size(); i++) (needed[i] ? run : keep).push_back(Q().queue[i]);
    Q().queue.swap(keep);
    if (!run.empty()) {
        if (cfg.schedule != SCHEDULE_ISSUE) reorder(run);
        open_device();
        for (op *o : run) {
            if (!sticky_error()) o->run();
            delete o;
        }
        close_device();
    }
    flushing = 0;
    return sticky_error();
}

// Marks what must complete before queue[last] (and it): earlier work on its stream, the legacy default
// stream's implicit ordering with blocking streams, and the events waited for with cudaStreamWaitEvent.
// One pass from the back suffices: every dependency points to an earlier position.
static void mark_dependencies(std::vector<bool> &needed, std::map<cudaStream_t, long> &until) {
    auto &q = Q().queue;
    std::vector<cudaStream_t> blocking;  // the blocking streams with queued work (few)
    for (op *p : q)
        if (is_blocking(p->stream) && std::find(blocking.begin(), blocking.end(), p->stream) == blocking.end())
            blocking.push_back(p->stream);
    for (long i = (long)q.size() - 1; i >= 0; i--) {
        op *o = q[i];
        cudaStream_t s = is_legacy(o->stream) ? 0 : o->stream;
        auto it = until.find(s);
        if (it == until.end() || i > it->second) continue;
        needed[i] = true;
        auto need = [&](cudaStream_t t, long upto) {
            long &u = until.emplace(t, -1).first->second;
            if (upto > u) u = upto;
        };
        if (s == 0) {
            for (cudaStream_t t : blocking) need(t, i - 1);
        } else if (is_blocking(s)) {
            need(0, i - 1);
        }
        if (o->waits_for)
            for (long j = i - 1; j >= 0; j--)
                if (q[j]->seq == o->waits_for) { need(is_legacy(q[j]->stream) ? 0 : q[j]->stream, j); break; }
    }
}

static cudaError_t flush_until(std::map<cudaStream_t, long> &until) {
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    std::vector<bool> needed(Q().queue.size(), false);
    mark_dependencies(needed, until);
    return run_marked(needed);
}

// cudaDeviceSynchronize, cudaFree...: everything queued.
cudaError_t flush() {
    if (cudaError_t e = capture_sync_error(NULL)) return e;  // it would wait for a capturing stream
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    return run_marked(std::vector<bool>(Q().queue.size(), true));
}

// cudaStreamSynchronize and blocking copies: the stream's work and what it waits for, nothing else, so that
// synchronizing the wrong stream leaves the data stale, as on a GPU. The wait is itself a point in stream s:
// on the legacy default stream it waits for the blocking streams' work too, on a blocking stream for the
// legacy stream's, even when s has nothing queued.
cudaError_t flush_stream(cudaStream_t s) {
    if (cudaError_t e = capture_sync_error(&s)) return e;  // it would wait for a capturing stream
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    std::map<cudaStream_t, long> until;
    long last = (long)Q().queue.size() - 1;
    until[is_legacy(s) ? 0 : s] = last;
    for (op *o : Q().queue) {
        if (legacy_tied(s, o->stream)) until[is_legacy(o->stream) ? 0 : o->stream] = last;
    }
    return flush_until(until);
}

// The operation with sequence number seq (an event record) and what it waits for.
static cudaError_t flush_seq(uint64_t seq) {
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    std::map<cudaStream_t, long> until;
    for (long i = 0; i < (long)Q().queue.size(); i++)
        if (Q().queue[i]->seq == seq) until[is_legacy(Q().queue[i]->stream) ? 0 : Q().queue[i]->stream] = i;
    return until.empty() ? sticky_error() : flush_until(until);
}

static bool pending_seq(uint64_t seq) {
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    for (op *o : Q().queue)
        if (o->seq == seq) return true;
    return false;
}

static double now() {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

// cudaStreamWaitEvent: nothing to do when it runs; its waits_for ties the stream to the event's record.
struct wait_op : op {
    void run() override {}
};

struct event_op : op {
    cudaEvent_t ev;
    void run() override { ev->when = now(); ev->state = 2; }
};

// Host code must not see device memory, so device pages are closed while the callback runs.
struct host_fn_op : op {
    cudaHostFn_t fn;
    cudaStreamCallback_t cb;
    void *data;
    void run() override {
        close_device();
        if (fn) fn(data);
        else cb(stream, cudaSuccess, data);
        open_device();
    }
    int graph_node_type() const override { return cudaGraphNodeTypeHost; }
};
// for graph nodes (graph_nodes.cpp): an event record or wait, and the event's queue state
op *new_event_op(cudaEvent_t ev) {
    event_op *o = new event_op;
    o->ev = ev;
    return o;
}
op *new_wait_op() { return new wait_op; }
void event_queued(cudaEvent_t ev, uint64_t seq) {
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    ev->state = 1;
    ev->record_seq = seq;
}
bool event_pending(cudaEvent_t ev, uint64_t *seq) {
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    *seq = ev->record_seq;
    return ev->state == 1;
}
bool event_valid(cudaEvent_t ev) {
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    return Q().events.count(ev) > 0;
}
op *new_host_op(cudaHostFn_t fn, void *data) {
    host_fn_op *o = new host_fn_op;
    o->fn = fn; o->cb = NULL; o->data = data;
    return o;
}
} // namespace rt

using namespace rt;

cudaError_t cudaDeviceSynchronize(cudawb_site) {
    if (cudaError_t e = enter("cudaDeviceSynchronize")) return e;
    if (cudaError_t e = flush()) return fail("cudaDeviceSynchronize", e);
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority, cudawb_site) {
    if (cudaError_t e = enter("cudaStreamCreate")) return e;
    if (!stream || flags > cudaStreamNonBlocking) return fail("cudaStreamCreate", cudaErrorInvalidValue);
    // a priority outside cudaDeviceGetStreamPriorityRange's [-5, 0] is clamped to it, as documented
    priority = priority < -5 ? -5 : priority > 0 ? 0 : priority;
    cudaStream_t s = new CUstream_st{flags, priority};
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    Q().streams.insert(s);
    *stream = s;
    return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t *stream, cudawb_site) { return cudaStreamCreateWithPriority(stream, 0, 0); }

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags, cudawb_site) {
    return cudaStreamCreateWithPriority(stream, flags, 0);
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority) {
    if (cudaError_t e = enter("cudaStreamGetPriority")) return e;
    if (!priority) return fail("cudaStreamGetPriority", cudaErrorInvalidValue);
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    if (!valid_stream(stream)) return fail("cudaStreamGetPriority", cudaErrorInvalidResourceHandle);
    *priority = is_legacy(stream) || stream == cudaStreamPerThread ? 0 : stream->priority;
    return cudaSuccess;
}

// Managed memory attached to a stream, to the host or to every stream: on the H200, whose managed memory the
// host and the device may use at once (cudaDevAttrConcurrentManagedAccess), an attachment changes no access,
// so only the arguments are checked: a managed allocation, whole (length 0 or its size), a known flag.
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags) {
    const char *fn = "cudaStreamAttachMemAsync";
    if (cudaError_t e = enter(fn)) return e;
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle)
        return fail(fn, cudaErrorInvalidValue);
    const alloc *a = find(devPtr);
    if (!a || !(a->kind & MANAGED) || (length && ((uintptr_t)devPtr != a->base || length != a->size)))
        return fail(fn, cudaErrorInvalidValue);
    return cudaSuccess;
}

// A stream destroyed with work pending still completes it, like on the GPU.
cudaError_t cudaStreamDestroy(cudaStream_t stream, cudawb_site) {
    if (cudaError_t e = enter("cudaStreamDestroy")) return e;
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    if (!Q().streams.count(stream)) return fail("cudaStreamDestroy", cudaErrorInvalidResourceHandle);
    Q().streams.erase(stream);
    capture_forget(stream, NULL);
    for (op *o : Q().queue)
        if (o->stream == stream) o->stream = 0;
    delete stream;
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream, cudawb_site) {
    if (cudaError_t e = enter("cudaStreamSynchronize")) return e;
    if (!valid_stream(stream)) return fail("cudaStreamSynchronize", cudaErrorInvalidResourceHandle);
    if (cudaError_t e = flush_stream(stream)) return fail("cudaStreamSynchronize", e);
    return cudaSuccess;
}

static bool stream_pending(cudaStream_t stream) {
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    for (op *o : Q().queue)
        if (o->stream == stream || (is_legacy(stream) && is_legacy(o->stream))) return true;
    return false;
}

// Work in flight answers "not ready" once and is then run, so a polling loop always terminates.
cudaError_t cudaStreamQuery(cudaStream_t stream, cudawb_site) {
    if (cudaError_t e = enter("cudaStreamQuery")) return e;
    if (!valid_stream(stream)) return fail("cudaStreamQuery", cudaErrorInvalidResourceHandle);
    if (cudaError_t e = capture_sync_error(&stream)) return fail("cudaStreamQuery", e);
    if (!stream_pending(stream)) return cudaSuccess;
    if (cudaError_t e = flush_stream(stream)) return fail("cudaStreamQuery", e);
    return cudaErrorNotReady;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags, cudawb_site) {
    if (cudaError_t e = enter("cudaStreamWaitEvent")) return e;
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    if (!valid_stream(stream) || !Q().events.count(event))
        return fail("cudaStreamWaitEvent", cudaErrorInvalidResourceHandle);
    if (flags > cudaEventWaitExternal) return fail("cudaStreamWaitEvent", cudaErrorInvalidValue);
    cudaError_t e;  // an event wait node (cudaEventWaitExternal), or a fork or join of captured streams (capture.cpp)
    if (flags && capture_event_node(stream, event, false, &e)) return fail("cudaStreamWaitEvent", e);
    if (capture_event_wait(stream, event, &e)) return fail("cudaStreamWaitEvent", e);
    if ((e = capture_stream_error(stream))) return fail("cudaStreamWaitEvent", e);
    if (event->state == 1) {
        wait_op *o = new wait_op;
        o->stream = stream;
        enqueue(o);
        o->waits_for = event->record_seq;
    }
    return cudaSuccess;
}

static cudaError_t host_fn(const char *fn, cudaStream_t stream, cudaHostFn_t f, cudaStreamCallback_t cb, void *data) {
    if (cudaError_t e = enter(fn)) return e;
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    if (!f && !cb) return fail(fn, cudaErrorInvalidValue);
    if (cudaError_t e = capture_stream_error(stream)) return fail(fn, e);
    host_fn_op *o = new host_fn_op;
    o->fn = f; o->cb = cb; o->data = data; o->stream = stream;
    enqueue(o);
    return cudaSuccess;
}
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData, cudawb_site) {
    return host_fn("cudaLaunchHostFunc", stream, fn, NULL, userData);
}
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t cb, void *userData, unsigned int) {
    return host_fn("cudaStreamAddCallback", stream, NULL, cb, userData);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags, cudawb_site) {
    if (cudaError_t e = enter("cudaEventCreate")) return e;
    if (!event || flags > 0x0f) return fail("cudaEventCreate", cudaErrorInvalidValue);
    cudaEvent_t ev = new CUevent_st{flags, 0, 0.0, 0};
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    Q().events.insert(ev);
    *event = ev;
    return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t *event, cudawb_site) { return cudaEventCreateWithFlags(event, 0); }

static bool valid_event(cudaEvent_t e) {
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    return Q().events.count(e) > 0;
}

cudaError_t cudaEventDestroy(cudaEvent_t event, cudawb_site) {
    if (cudaError_t e = enter("cudaEventDestroy")) return e;
    std::lock_guard<std::recursive_mutex> g(Q().mu);
    if (!Q().events.count(event)) return fail("cudaEventDestroy", cudaErrorInvalidResourceHandle);
    Q().events.erase(event);
    capture_forget(NULL, event);
    for (op *o : Q().queue) {
        event_op *eo = dynamic_cast<event_op *>(o);
        if (eo && eo->ev == event) eo->ev = new CUevent_st{0, 0, 0.0, 0};  // recorded into a dead event: harmless
    }
    delete event;
    return cudaSuccess;
}

static cudaError_t event_record(const char *fn, cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
    if (cudaError_t e = enter(fn)) return e;
    if (!valid_event(event) || !valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    if (flags > cudaEventRecordExternal) return fail(fn, cudaErrorInvalidValue);
    cudaError_t e;  // an event record node (cudaEventRecordExternal, capture.cpp)
    if (flags && capture_event_node(stream, event, true, &e)) return fail(fn, e);
    // recorded in a capture: the capture's current nodes, for streams that wait for it
    if (capture_event_record(event, stream, &e)) return fail(fn, e);
    if ((e = capture_stream_error(stream))) return fail(fn, e);
    event_op *o = new event_op;
    o->ev = event;
    o->stream = stream;
    event->state = 1;
    enqueue(o);
    event->record_seq = o->seq;
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream, cudawb_site) {
    return event_record("cudaEventRecord", event, stream, 0);
}
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
    return event_record("cudaEventRecordWithFlags", event, stream, flags);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event, cudawb_site) {
    if (cudaError_t e = enter("cudaEventSynchronize")) return e;
    if (!valid_event(event)) return fail("cudaEventSynchronize", cudaErrorInvalidResourceHandle);
    if (cudaError_t e = capture_event_error(event)) return fail("cudaEventSynchronize", e);
    if (event->state == 1 && pending_seq(event->record_seq))
        if (cudaError_t e = flush_seq(event->record_seq)) return fail("cudaEventSynchronize", e);
    return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t event, cudawb_site) {
    if (cudaError_t e = enter("cudaEventQuery")) return e;
    if (!valid_event(event)) return fail("cudaEventQuery", cudaErrorInvalidResourceHandle);
    if (cudaError_t e = capture_event_error(event)) return fail("cudaEventQuery", e);
    if (event->state != 1 || !pending_seq(event->record_seq)) return cudaSuccess;
    if (cudaError_t e = flush_seq(event->record_seq)) return fail("cudaEventQuery", e);
    return cudaErrorNotReady;
}

// Both Q().events must have completed; an event never recorded (or created without timing) gives 400, as
// measured; one still queued gives 600 (not ready), which CUDA does not record as an error.
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end, cudawb_site) {
    if (cudaError_t e = enter("cudaEventElapsedTime")) return e;
    if (!ms) return fail("cudaEventElapsedTime", cudaErrorInvalidValue);
    if (!valid_event(start) || !valid_event(end)) return fail("cudaEventElapsedTime", cudaErrorInvalidResourceHandle);
    if (start->state == 0 || end->state == 0 || ((start->flags | end->flags) & cudaEventDisableTiming))
        return fail("cudaEventElapsedTime", cudaErrorInvalidResourceHandle);
    if (start->state != 2 || end->state != 2) return cudaErrorNotReady;
    *ms = (float)((end->when - start->when) * 1000.0);
    return cudaSuccess;
}
