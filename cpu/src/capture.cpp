// capture.cpp: stream capture. While a stream captures, enqueue() hands each operation issued to it to
// capture_take, which makes it a graph node depending on the stream's current nodes; an event recorded in a
// capturing stream remembers those nodes, and another stream waiting for it joins the capture with them
// (fork and join). The hooks of graph.h let the other calls refuse what a capture forbids, as CUDA does.
#include "graph_data.h"
#include <algorithm>
#include <atomic>
#include <thread>

namespace rt {
namespace {
struct capture_seq {
    unsigned long long id;
    cudaStreamCaptureMode mode;
    bool invalid = false;
    std::thread::id thread;
    cudaStream_t origin;
    cudaGraph_t graph;
};
struct capture_point {  // a capturing stream, or an event recorded in one: the capture and its current nodes
    capture_seq *c;
    std::vector<cudaGraphNode_t> deps;
    std::vector<cudaGraphEdgeData> edges;  // zeros, for cudaStreamGetCaptureInfo's edgeData_out
};
typedef std::map<cudaStream_t, capture_point> stream_map;
typedef std::map<cudaEvent_t, capture_point> event_map;
stream_map &streams() { static stream_map &m = *new stream_map; return m; }  // the streams taking part in captures
event_map &events() { static event_map &m = *new event_map; return m; }      // events recorded in captures
std::atomic<int> capturing(0);     // captures begun and not ended
unsigned long long last_id = 0;
__thread cudaStreamCaptureMode thread_mode = cudaStreamCaptureModeGlobal;

bool legacy(cudaStream_t s) { return s == 0 || s == cudaStreamLegacy; }
bool blocking(cudaStream_t s) { return blocking_stream(s); }

void end_capture(capture_seq *c) {
    for (auto it = streams().begin(); it != streams().end();)
        it = it->second.c == c ? streams().erase(it) : std::next(it);
    for (auto it = events().begin(); it != events().end();)
        it = it->second.c == c ? events().erase(it) : std::next(it);
    capturing--;
    delete c;
}

// 906: the legacy stream would wait for a capturing blocking stream; those captures are invalidated.
cudaError_t legacy_implicit() {
    bool hit = false;
    for (auto &s : streams())
        if (blocking(s.first)) s.second.c->invalid = hit = true;
    return hit ? cudaErrorStreamCaptureImplicit : cudaSuccess;
}

// Is `a` the node n or one of its ancestors?
bool reaches(cudaGraphNode_t a, cudaGraphNode_t n, std::set<cudaGraphNode_t> &seen) {
    if (a == n) return true;
    if (!seen.insert(n).second) return false;
    for (cudaGraphNode_t d : n->deps)
        if (reaches(a, d, seen)) return true;
    return false;
}

}  // namespace

bool capture_take(op *o) {
    if (node_sink) {
        node_sink->push_back(o);
        return true;
    }
    if (!capturing.load(std::memory_order_relaxed)) return false;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    auto it = streams().find(o->stream);
    cudaError_t e = cudaSuccess;
    if (it == streams().end()) {
        if (!legacy(o->stream) || !(e = legacy_implicit())) return false;
    } else if (it->second.c->invalid) {
        e = cudaErrorStreamCaptureInvalidated;
    }
    if (e) {  // a kernel or cuBLAS call (the other calls check capture_stream_error first)
        delete o;
        fail("cudaLaunchKernel", e);
        return true;
    }
    capture_point &p = it->second;
    cudaGraphNode_t n = add_node(p.c->graph, o->graph_node_type(), p.deps.data(), p.deps.size());
    n->ops.emplace_back(o);
    p.deps.assign(1, n);
    return true;
}

cudaError_t capture_stream_error(cudaStream_t s) {
    if (node_sink || !capturing.load(std::memory_order_relaxed)) return cudaSuccess;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    auto it = streams().find(s);
    if (it != streams().end()) return it->second.c->invalid ? cudaErrorStreamCaptureInvalidated : cudaSuccess;
    return legacy(s) ? legacy_implicit() : cudaSuccess;
}

bool capture_defers(cudaStream_t s) {
    if (node_sink) return true;
    if (!capturing.load(std::memory_order_relaxed)) return false;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    return streams().count(s) > 0;
}

// CUDA's "potentially unsafe" calls: a thread may not make them during its own capture begun in global or
// thread-local mode, nor (unless its mode is relaxed or thread-local) during another thread's global capture.
cudaError_t capture_forbids(const char *fn) {
    if (node_sink || !capturing.load(std::memory_order_relaxed) || thread_mode == cudaStreamCaptureModeRelaxed)
        return cudaSuccess;
    static const char *const unsafe[] = {"cudaMalloc", "cudaMallocManaged", "cudaMallocPitch", "cudaMalloc3D",
                                         "cudaMallocHost", "cudaHostAlloc", "cudaHostRegister", "cudaHostUnregister",
                                         "cudaFree", "cudaFreeHost", "cudaMemcpy", "cudaMemcpy2D", "cudaMemcpy3D",
                                         "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol"};
    bool listed = false;
    for (const char *u : unsafe) listed = listed || !strcmp(u, fn);
    if (!listed) return cudaSuccess;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    bool hit = false;
    for (auto &s : streams()) {
        capture_seq *c = s.second.c;
        bool mine = c->thread == std::this_thread::get_id();
        if ((mine && c->mode != cudaStreamCaptureModeRelaxed) ||
            (!mine && c->mode == cudaStreamCaptureModeGlobal && thread_mode == cudaStreamCaptureModeGlobal))
            c->invalid = hit = true;
    }
    return hit ? cudaErrorStreamCaptureUnsupported : cudaSuccess;
}

bool capture_add(cudaStream_t s, const node_maker &make, cudaError_t *e) {
    if (node_sink || !capturing.load(std::memory_order_relaxed)) return false;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    auto it = streams().find(s);
    if (it == streams().end()) return false;
    capture_point &p = it->second;
    if (p.c->invalid) {
        *e = cudaErrorStreamCaptureInvalidated;
        return true;
    }
    cudaGraphNode_t n = nullptr;
    *e = make(p.c->graph, p.deps.data(), p.deps.size(), &n);
    if (!*e) p.deps.assign(1, n);
    return true;
}

cudaError_t capture_sync_error(const cudaStream_t *s) {
    if (node_sink || !capturing.load(std::memory_order_relaxed)) return cudaSuccess;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!s) {  // cudaDeviceSynchronize and the calls that wait for everything
        if (streams().empty()) return cudaSuccess;
        for (auto &p : streams()) p.second.c->invalid = true;
        return cudaErrorStreamCaptureUnsupported;
    }
    auto it = streams().find(*s);
    if (it != streams().end()) {
        it->second.c->invalid = true;
        return cudaErrorStreamCaptureUnsupported;
    }
    return legacy(*s) ? legacy_implicit() : cudaSuccess;
}

bool capture_event_record(cudaEvent_t ev, cudaStream_t s, cudaError_t *e) {
    if (!capturing.load(std::memory_order_relaxed)) return false;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    auto it = streams().find(s);
    if (it == streams().end()) {
        events().erase(ev);  // recorded outside a capture again
        return false;
    }
    *e = it->second.c->invalid ? cudaErrorStreamCaptureInvalidated : cudaSuccess;
    if (!*e) events()[ev] = it->second;
    return true;
}

bool capture_event_wait(cudaStream_t s, cudaEvent_t ev, cudaError_t *e) {
    if (!capturing.load(std::memory_order_relaxed)) return false;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    auto rec = events().find(ev);
    auto it = streams().find(s);
    if (rec == events().end()) {
        if (it == streams().end()) return false;
        // an event recorded outside the capture: its work is not part of the graph (not measured on the H200)
        *e = it->second.c->invalid ? cudaErrorStreamCaptureInvalidated : cudaSuccess;
        return true;
    }
    *e = cudaSuccess;
    if (legacy(s)) {
        *e = cudaErrorStreamCaptureImplicit;
        rec->second.c->invalid = true;
    } else if (it == streams().end()) {  // fork: s joins the capture, after the event's nodes
        streams()[s] = rec->second;
    } else if (it->second.c != rec->second.c) {
        *e = cudaErrorStreamCaptureMerge;
        it->second.c->invalid = rec->second.c->invalid = true;
    } else {  // join: s also waits for the event's nodes
        for (cudaGraphNode_t n : rec->second.deps)
            if (std::find(it->second.deps.begin(), it->second.deps.end(), n) == it->second.deps.end())
                it->second.deps.push_back(n);
    }
    return true;
}

void capture_forget(cudaStream_t s, cudaEvent_t ev) {
    if (!capturing.load(std::memory_order_relaxed)) return;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    events().erase(ev);
    auto it = streams().find(s);
    if (!s || it == streams().end()) return;
    it->second.c->invalid = true;
    if (it->second.c->origin == s) end_capture(it->second.c);  // nobody can end it any more
    else streams().erase(it);
}

cudaError_t capture_event_error(cudaEvent_t ev) {
    if (!capturing.load(std::memory_order_relaxed)) return cudaSuccess;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    return events().count(ev) ? cudaErrorCapturedEvent : cudaSuccess;
}
} // namespace rt

using namespace rt;

// Capture may not begin on the legacy stream (CUDA documents no code for it: 900 here, to be measured).
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
    const char *fn = "cudaStreamBeginCapture";
    if (cudaError_t e = enter(fn)) return e;
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed)
        return fail(fn, cudaErrorInvalidValue);
    if (legacy(stream)) return fail(fn, cudaErrorStreamCaptureUnsupported);
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (streams().count(stream)) return fail(fn, cudaErrorIllegalState);
    capture_seq *c = new capture_seq;
    c->id = ++last_id;
    c->mode = mode;
    c->thread = std::this_thread::get_id();
    c->origin = stream;
    c->graph = new CUgraph_st;
    live_graphs().insert(c->graph);
    streams()[stream] = capture_point{c, {}, {}};
    capturing++;
    return cudaSuccess;
}

// Ends the capture begun on this stream: the graph, or NULL with 901 when the capture was invalidated, 904
// when a stream forked into it was not joined back into this one.
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph) {
    const char *fn = "cudaStreamEndCapture";
    if (cudaError_t e = enter(fn)) return e;
    if (!pGraph) return fail(fn, cudaErrorInvalidValue);
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    auto it = streams().find(stream);
    if (it == streams().end()) return fail(fn, cudaErrorIllegalState);
    capture_seq *c = it->second.c;
    if (c->origin != stream) return fail(fn, cudaErrorStreamCaptureUnmatched);
    if (c->mode != cudaStreamCaptureModeRelaxed && c->thread != std::this_thread::get_id())
        return fail(fn, cudaErrorStreamCaptureWrongThread);
    cudaError_t e = c->invalid ? cudaErrorStreamCaptureInvalidated : cudaSuccess;
    const std::vector<cudaGraphNode_t> &ends = it->second.deps;
    for (auto &p : streams()) {
        if (e || p.second.c != c || p.first == stream) continue;
        for (cudaGraphNode_t n : p.second.deps) {
            bool joined = false;
            for (cudaGraphNode_t end : ends) {
                std::set<cudaGraphNode_t> seen;
                joined = joined || reaches(n, end, seen);
            }
            if (!joined) e = cudaErrorStreamCaptureUnjoined;
        }
    }
    cudaGraph_t g = c->graph;
    end_capture(c);
    if (e) {
        live_graphs().erase(g);
        delete g;
        *pGraph = nullptr;
        return fail(fn, e);
    }
    *pGraph = g;
    return cudaSuccess;
}

static cudaError_t capture_status(const char *fn, cudaStream_t stream, cudaStreamCaptureStatus *status,
                                  capture_point **point) {
    if (cudaError_t e = enter(fn)) return e;
    if (!status) return fail(fn, cudaErrorInvalidValue);
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    *point = nullptr;
    *status = cudaStreamCaptureStatusNone;
    auto it = streams().find(stream);
    if (it != streams().end()) {
        *point = &it->second;
        *status = it->second.c->invalid ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
    } else if (legacy(stream)) {
        for (auto &p : streams())
            if (blocking(p.first)) return fail(fn, cudaErrorStreamCaptureImplicit);
    }
    return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus) {
    capture_point *p;
    return capture_status("cudaStreamIsCapturing", stream, pCaptureStatus, &p);
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
                                     unsigned long long *id_out, cudaGraph_t *graph_out,
                                     const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out,
                                     size_t *numDependencies_out) {
    const char *fn = "cudaStreamGetCaptureInfo";
    if (edgeData_out && !dependencies_out) {
        if (cudaError_t e = enter(fn)) return e;
        return fail(fn, cudaErrorInvalidValue);
    }
    capture_point *p;
    if (cudaError_t e = capture_status(fn, stream, status, &p)) return e;
    if (*status != cudaStreamCaptureStatusActive) return cudaSuccess;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (id_out) *id_out = p->c->id;
    if (graph_out) *graph_out = p->c->graph;
    p->edges.assign(p->deps.size(), cudaGraphEdgeData{});
    if (dependencies_out) *dependencies_out = p->deps.empty() ? nullptr : p->deps.data();
    if (edgeData_out) *edgeData_out = p->edges.empty() ? nullptr : p->edges.data();
    if (numDependencies_out) *numDependencies_out = p->deps.size();
    return cudaSuccess;
}

cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode) {
    const char *fn = "cudaThreadExchangeStreamCaptureMode";
    if (cudaError_t e = enter(fn)) return e;
    if (!mode || *mode < cudaStreamCaptureModeGlobal || *mode > cudaStreamCaptureModeRelaxed)
        return fail(fn, cudaErrorInvalidValue);
    std::swap(*mode, thread_mode);
    return cudaSuccess;
}

