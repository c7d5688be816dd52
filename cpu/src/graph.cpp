// graph.cpp: CUDA graphs and stream capture.
//
// A graph's nodes hold the same operations the stream queue runs (stream.cpp's op: a kernel with its copied
// arguments, a copy, a memset, a host function, a cuBLAS call), shared, so that one node may run many times.
// Stream capture: while a stream captures, enqueue() hands each operation issued to it to capture_take,
// which makes it a node depending on the stream's current nodes; an event recorded in a capturing stream
// remembers those nodes, and another stream waiting for it joins the capture with them (fork and join).
// Explicit nodes are built by the ordinary call's own checks with the operation collected instead of queued
// (the "sink"). cudaGraphInstantiate orders the nodes topologically (child graphs flattened in place), and
// cudaGraphLaunch queues one operation on the stream that runs them all in that order.
#include "graph.h"
#include "../include/cudawb/by_address.h"
#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string.h>
#include <thread>
#include <vector>

using rt::op;
struct CUgraph_st;
struct CUgraphNode_st {
    cudaGraph_t graph;
    int type;
    std::vector<std::shared_ptr<op>> ops;  // run in this order (a 3-D copy may be several)
    cudaGraph_t child = nullptr;           // a child-graph node's own copy of the graph
    std::vector<cudaGraphNode_t> deps;
    // a kernel node made by cudaGraphAddKernelNode: its parameters, the arguments copied (GetParams answers them)
    bool has_params = false;
    cudaKernelNodeParams params = {};
    std::vector<size_t> arg_at;
    std::vector<char> arg_bytes;
    std::vector<void *> arg_ptrs;
    void keep(const cudaKernelNodeParams *p) {
        const char *name;
        size_t sizes[64];
        int n = tr_kernel_info(p->func, &name, sizes, 64);  // registered by the launch that made the node
        arg_at.clear();
        arg_bytes.clear();
        for (int i = 0; i < n; i++) {
            arg_at.push_back((arg_bytes.size() + 15) / 16 * 16);
            arg_bytes.resize(arg_at.back() + sizes[i]);
            memcpy(arg_bytes.data() + arg_at.back(), p->kernelParams[i], sizes[i]);
        }
        params = *p;
        has_params = true;
        point();
    }
    void point() {  // after a copy too: the pointers must name this node's bytes
        arg_ptrs.clear();
        for (size_t at : arg_at) arg_ptrs.push_back(arg_bytes.data() + at);
        params.kernelParams = arg_ptrs.empty() ? nullptr : arg_ptrs.data();
    }
};
struct CUgraph_st {
    std::vector<cudaGraphNode_t> nodes;  // in creation order
    ~CUgraph_st();
};
struct CUgraphExec_st {
    std::vector<std::shared_ptr<op>> order;          // every operation, dependencies first
    std::vector<std::vector<size_t>> preds;          // ... and the positions each must wait for
    std::map<cudaGraphNode_t, size_t> first;         // a top-level node's first operation in order
    std::vector<std::pair<int, size_t>> shape;       // per top-level node in topological order: type, operations
    std::vector<std::vector<size_t>> shape_deps;     // ... and its dependencies' positions (cudaGraphExecUpdate)
};
CUgraph_st::~CUgraph_st() {
    for (cudaGraphNode_t n : nodes) {
        delete n->child;
        delete n;
    }
}

namespace rt {
namespace {
std::recursive_mutex &mu() { static std::recursive_mutex &m = *new std::recursive_mutex; return m; }
std::set<cudaGraph_t> &graphs() { static auto &s = *new std::set<cudaGraph_t>; return s; }
std::set<cudaGraphExec_t> &execs() { static auto &s = *new std::set<cudaGraphExec_t>; return s; }

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
std::map<cudaStream_t, capture_point> &streams() { static auto &m = *new std::map<cudaStream_t, capture_point>; return m; }
std::map<cudaEvent_t, capture_point> &events() { static auto &m = *new std::map<cudaEvent_t, capture_point>; return m; }
std::atomic<int> capturing(0);     // captures begun and not ended
unsigned long long last_id = 0;
__thread std::vector<op *> *sink;  // a node being built collects its operations here
__thread cudaStreamCaptureMode thread_mode = cudaStreamCaptureModeGlobal;

bool legacy(cudaStream_t s) { return s == 0 || s == cudaStreamLegacy; }
bool blocking(cudaStream_t s) { return blocking_stream(s); }
}  // namespace
} // namespace rt

// The graph operation queued by cudaGraphLaunch: the executable graph's operations as they were at the launch.
namespace rt {
namespace {
struct graph_op : op {
    std::vector<std::shared_ptr<op>> order;
    std::vector<std::vector<size_t>> preds;
    void run() override {
        for (size_t i : schedule()) {
            if (sticky_error()) break;
            order[i]->run();
        }
    }
    // Issue order: the topological order. Under CUDAWB_SCHEDULE=reverse or shuffle:SEED (stream.cpp), another
    // order that keeps only the dependencies, as a GPU runs independent nodes concurrently: each step runs the
    // latest ready operation, or a random one.
    std::vector<size_t> schedule() const {
        size_t n = order.size();
        std::vector<size_t> out;
        if (cfg.schedule == SCHEDULE_ISSUE) {
            for (size_t i = 0; i < n; i++) out.push_back(i);
            return out;
        }
        std::vector<std::vector<size_t>> after(n);
        std::vector<size_t> waiting(n), ready;
        for (size_t i = 0; i < n; i++) {
            waiting[i] = preds[i].size();
            for (size_t p : preds[i]) after[p].push_back(i);
            if (!waiting[i]) ready.push_back(i);
        }
        uint64_t rng = cfg.schedule_seed * 0x9E3779B97F4A7C15ull + n + seq;
        while (!ready.empty()) {
            size_t k = ready.size() - 1;
            if (cfg.schedule == SCHEDULE_SHUFFLE) {
                rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                k = rng % ready.size();
            }
            size_t i = ready[k];
            ready.erase(ready.begin() + k);
            out.push_back(i);
            for (size_t j : after[i])
                if (!--waiting[j]) ready.insert(std::lower_bound(ready.begin(), ready.end(), j), j);
        }
        return out;
    }
    int graph_node_type() const override { return cudaGraphNodeTypeGraph; }
};

// A memset node: elements of 1, 2 or 4 bytes (cudaMemsetAsync has only bytes).
struct memset_node_op : op {
    char *dst;
    size_t pitch, width, height;
    unsigned int value, size;
    void run() override {
        make_resident(dst);
        for (size_t r = 0; r < height; r++)
            for (size_t i = 0; i < width; i++) memcpy(dst + r * pitch + i * size, &value, size);  // little-endian
    }
    int graph_node_type() const override { return cudaGraphNodeTypeMemset; }
};

void end_capture(capture_seq *c) {
    for (auto it = streams().begin(); it != streams().end();) it = it->second.c == c ? streams().erase(it) : std::next(it);
    for (auto it = events().begin(); it != events().end();) it = it->second.c == c ? events().erase(it) : std::next(it);
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

bool in_graph(cudaGraph_t g, cudaGraphNode_t n) {
    return n && std::find(g->nodes.begin(), g->nodes.end(), n) != g->nodes.end();
}

cudaGraphNode_t add_node(cudaGraph_t g, int type, const cudaGraphNode_t *deps, size_t n) {
    cudaGraphNode_t node = new CUgraphNode_st;
    node->graph = g;
    node->type = type;
    node->deps.assign(deps, deps + n);
    g->nodes.push_back(node);
    return node;
}

// Is `a` the node n or one of its ancestors?
bool reaches(cudaGraphNode_t a, cudaGraphNode_t n, std::set<cudaGraphNode_t> &seen) {
    if (a == n) return true;
    if (!seen.insert(n).second) return false;
    for (cudaGraphNode_t d : n->deps)
        if (reaches(a, d, seen)) return true;
    return false;
}

// A copy of g with new nodes sharing the operations (a child graph node owns one, as CUDA clones it).
cudaGraph_t clone(cudaGraph_t g) {
    cudaGraph_t c = new CUgraph_st;
    std::map<cudaGraphNode_t, cudaGraphNode_t> to;
    for (cudaGraphNode_t n : g->nodes) {
        cudaGraphNode_t m = new CUgraphNode_st(*n);
        m->graph = c;
        m->point();
        if (n->child) m->child = clone(n->child);
        to[n] = m;
        c->nodes.push_back(m);
    }
    for (cudaGraphNode_t m : c->nodes)
        for (cudaGraphNode_t &d : m->deps) d = to[d];
    return c;
}

// The nodes of g in a topological order (creation order among the ready ones); false for a cycle.
bool topological(cudaGraph_t g, std::vector<cudaGraphNode_t> &out) {
    std::set<cudaGraphNode_t> done;
    while (out.size() < g->nodes.size()) {
        bool progress = false;
        for (cudaGraphNode_t n : g->nodes) {
            if (done.count(n)) continue;
            bool ready = true;
            for (cudaGraphNode_t d : n->deps) ready = ready && done.count(d);
            if (!ready) continue;
            done.insert(n);
            out.push_back(n);
            progress = true;
        }
        if (!progress) return false;
    }
    return true;
}

// Appends g's operations to x in a topological order, each with the positions it must wait for: a node's
// first operation waits for the last ones of the nodes it depends on (a root's for `in`, what the child graph
// node holding g waits for), the others for the one before. *out: the positions after which g is complete.
bool flatten(cudaGraph_t g, CUgraphExec_st *x, bool top, const std::vector<size_t> &in = {},
             std::vector<size_t> *out = nullptr) {
    std::vector<cudaGraphNode_t> order;
    if (!topological(g, order)) return false;
    std::map<cudaGraphNode_t, size_t> pos;
    std::map<cudaGraphNode_t, std::vector<size_t>> done;  // after which positions each node is complete
    std::vector<size_t> all;
    for (cudaGraphNode_t n : order) {
        size_t before = x->order.size();
        if (top) {
            x->first[n] = before;
            pos[n] = pos.size();
        }
        std::vector<size_t> wait = n->deps.empty() ? in : std::vector<size_t>();
        for (cudaGraphNode_t d : n->deps) wait.insert(wait.end(), done[d].begin(), done[d].end());
        std::sort(wait.begin(), wait.end());
        wait.erase(std::unique(wait.begin(), wait.end()), wait.end());
        if (n->child) {
            if (!flatten(n->child, x, false, wait, &done[n])) return false;
        } else if (n->ops.empty()) {
            done[n] = wait;
        } else {
            for (size_t i = 0; i < n->ops.size(); i++) {
                x->order.push_back(n->ops[i]);
                x->preds.push_back(i ? std::vector<size_t>{x->order.size() - 2} : wait);
            }
            done[n] = {x->order.size() - 1};
        }
        all.insert(all.end(), done[n].begin(), done[n].end());
        if (top) {
            x->shape.push_back({n->type, x->order.size() - before});
            std::vector<size_t> d;
            for (cudaGraphNode_t p : n->deps) d.push_back(pos[p]);
            std::sort(d.begin(), d.end());
            x->shape_deps.push_back(d);
        }
    }
    if (out) *out = order.empty() ? in : all;
    return true;
}

// The checks common to every cudaGraphAdd*Node.
cudaError_t node_args(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n) {
    if (!out || !graphs().count(g) || (n && !deps)) return cudaErrorInvalidValue;
    for (size_t i = 0; i < n; i++)
        if (!in_graph(g, deps[i]) || std::count(deps, deps + n, deps[i]) > 1) return cudaErrorInvalidValue;
    return cudaSuccess;
}

// Runs `issue` (an ordinary call's checks and queueing) with its operations collected: they become the node's.
template <class F> cudaError_t collect(std::vector<std::shared_ptr<op>> &ops, F issue) {
    std::vector<op *> got;
    std::vector<op *> *saved = sink;
    sink = &got;
    cudaError_t e = issue();
    sink = saved;
    for (op *o : got) {
        if (e) delete o;
        else ops.emplace_back(o);
    }
    return e;
}

cudaError_t kernel_ops(const char *fn, std::vector<std::shared_ptr<op>> &ops, const cudaKernelNodeParams *p) {
    if (!p || p->extra) return cudaErrorInvalidValue;  // the "extra" packing is not supported here
    return collect(ops, [&] {
        return cudawb::launch_by_address(p->func, p->gridDim, p->blockDim, p->kernelParams, p->sharedMemBytes, 0, 0,
                                         fn, cudawb_site());
    });
}

template <class F>
cudaError_t add_with(const char *fn, cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n,
                     int type, F issue) {
    if (cudaError_t e = enter(fn)) return e;
    {
        std::lock_guard<std::recursive_mutex> lk(mu());
        if (cudaError_t e = node_args(out, g, deps, n)) return fail(fn, e);
    }
    // not under the lock: the call's checks take the queue's, which is held around this one elsewhere
    std::vector<std::shared_ptr<op>> ops;
    if (cudaError_t e = issue(ops)) return fail(fn, e);
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (cudaError_t e = node_args(out, g, deps, n)) return fail(fn, e);  // (the graph may be gone meanwhile)
    cudaGraphNode_t node = add_node(g, type, deps, n);
    node->ops.swap(ops);
    *out = node;
    return cudaSuccess;
}

// The nodes a list call answers: the first *count of them, NULL after the last, *count set to how many (and
// their edges' data, all default here).
cudaError_t list(const std::vector<cudaGraphNode_t> &all, cudaGraphNode_t *out, size_t *count,
                 cudaGraphEdgeData *edges = nullptr) {
    if (!count || (edges && !out)) return cudaErrorInvalidValue;
    if (!out) {
        *count = all.size();
        return cudaSuccess;
    }
    for (size_t i = 0; i < *count; i++) {
        out[i] = i < all.size() ? all[i] : nullptr;
        if (edges) edges[i] = cudaGraphEdgeData{};
    }
    *count = std::min(*count, all.size());
    return cudaSuccess;
}
}  // namespace

bool capture_take(op *o) {
    if (sink) {
        sink->push_back(o);
        return true;
    }
    if (!capturing.load(std::memory_order_relaxed)) return false;
    std::lock_guard<std::recursive_mutex> lk(mu());
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
    if (sink || !capturing.load(std::memory_order_relaxed)) return cudaSuccess;
    std::lock_guard<std::recursive_mutex> lk(mu());
    auto it = streams().find(s);
    if (it != streams().end()) return it->second.c->invalid ? cudaErrorStreamCaptureInvalidated : cudaSuccess;
    return legacy(s) ? legacy_implicit() : cudaSuccess;
}

bool capture_defers(cudaStream_t s) {
    if (sink) return true;
    if (!capturing.load(std::memory_order_relaxed)) return false;
    std::lock_guard<std::recursive_mutex> lk(mu());
    return streams().count(s) > 0;
}

// CUDA's "potentially unsafe" calls: a thread may not make them during its own capture begun in global or
// thread-local mode, nor (unless its mode is relaxed or thread-local) during another thread's global capture.
cudaError_t capture_forbids(const char *fn) {
    if (sink || !capturing.load(std::memory_order_relaxed) || thread_mode == cudaStreamCaptureModeRelaxed)
        return cudaSuccess;
    static const char *const unsafe[] = {"cudaMalloc", "cudaMallocManaged", "cudaMallocPitch", "cudaMalloc3D",
                                         "cudaMallocHost", "cudaHostAlloc", "cudaHostRegister", "cudaHostUnregister",
                                         "cudaFree", "cudaFreeHost", "cudaMemcpy", "cudaMemcpy2D", "cudaMemcpy3D",
                                         "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol"};
    bool listed = false;
    for (const char *u : unsafe) listed = listed || !strcmp(u, fn);
    if (!listed) return cudaSuccess;
    std::lock_guard<std::recursive_mutex> lk(mu());
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

cudaError_t capture_unsupported(const char *fn, cudaStream_t s) {
    if (sink || !capturing.load(std::memory_order_relaxed)) return cudaSuccess;
    std::lock_guard<std::recursive_mutex> lk(mu());
    auto it = streams().find(s);
    if (it == streams().end()) return cudaSuccess;
    fprintf(stderr, "cudawb: %s on a capturing stream would be a memory node of the graph, which the CPU backend "
                    "does not support: it returns 900 and invalidates the capture\n", fn);
    it->second.c->invalid = true;
    return cudaErrorStreamCaptureUnsupported;
}

cudaError_t capture_sync_error(const cudaStream_t *s) {
    if (sink || !capturing.load(std::memory_order_relaxed)) return cudaSuccess;
    std::lock_guard<std::recursive_mutex> lk(mu());
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
    std::lock_guard<std::recursive_mutex> lk(mu());
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
    std::lock_guard<std::recursive_mutex> lk(mu());
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
    std::lock_guard<std::recursive_mutex> lk(mu());
    events().erase(ev);
    auto it = streams().find(s);
    if (!s || it == streams().end()) return;
    it->second.c->invalid = true;
    if (it->second.c->origin == s) end_capture(it->second.c);  // nobody can end it any more
    else streams().erase(it);
}

cudaError_t capture_event_error(cudaEvent_t ev) {
    if (!capturing.load(std::memory_order_relaxed)) return cudaSuccess;
    std::lock_guard<std::recursive_mutex> lk(mu());
    return events().count(ev) ? cudaErrorCapturedEvent : cudaSuccess;
}
} // namespace rt

using namespace rt;

// Capture may not begin on the legacy stream (CUDA documents no code for it: 900 here, to be measured).
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
    const char *fn = "cudaStreamBeginCapture";
    if (cudaError_t e = enter(fn)) return e;
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed) return fail(fn, cudaErrorInvalidValue);
    if (legacy(stream)) return fail(fn, cudaErrorStreamCaptureUnsupported);
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (streams().count(stream)) return fail(fn, cudaErrorIllegalState);
    capture_seq *c = new capture_seq;
    c->id = ++last_id;
    c->mode = mode;
    c->thread = std::this_thread::get_id();
    c->origin = stream;
    c->graph = new CUgraph_st;
    graphs().insert(c->graph);
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
    std::lock_guard<std::recursive_mutex> lk(mu());
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
        graphs().erase(g);
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
    std::lock_guard<std::recursive_mutex> lk(mu());
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
    std::lock_guard<std::recursive_mutex> lk(mu());
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

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags) {
    if (cudaError_t e = enter("cudaGraphCreate")) return e;
    if (!pGraph || flags) return fail("cudaGraphCreate", cudaErrorInvalidValue);
    std::lock_guard<std::recursive_mutex> lk(mu());
    *pGraph = new CUgraph_st;
    graphs().insert(*pGraph);
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
    if (cudaError_t e = enter("cudaGraphDestroy")) return e;
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (!graphs().erase(graph)) return fail("cudaGraphDestroy", cudaErrorInvalidValue);
    delete graph;
    return cudaSuccess;
}

// A kernel node: the launch's own checks (the configuration: 1; a function that is no kernel of this program:
// 400), its arguments copied now from kernelParams, as CUDA copies them when the node is made.
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                   size_t n, const struct cudaKernelNodeParams *p) {
    const char *fn = "cudaGraphAddKernelNode";
    cudaError_t e = add_with(fn, pGraphNode, graph, deps, n, cudaGraphNodeTypeKernel,
                             [&](std::vector<std::shared_ptr<op>> &ops) { return kernel_ops(fn, ops, p); });
    if (!e) {
        std::lock_guard<std::recursive_mutex> lk(mu());
        (*pGraphNode)->keep(p);
    }
    return e;
}

// The parameters a kernel node was made or last set with, its arguments as copied then. A kernel node made
// by stream capture does not keep them here: 1 (not identical: a GPU answers them).
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *p) {
    const char *fn = "cudaGraphKernelNodeGetParams";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (!node || !p || !node->has_params) return fail(fn, cudaErrorInvalidValue);
    *p = node->params;
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *p) {
    const char *fn = "cudaGraphKernelNodeSetParams";
    if (cudaError_t e = enter(fn)) return e;
    std::vector<std::shared_ptr<op>> ops;
    if (cudaError_t e = kernel_ops(fn, ops, p)) return fail(fn, e);  // not under the lock (see add_with)
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (!node || !graphs().count(node->graph) || node->type != cudaGraphNodeTypeKernel)
        return fail(fn, cudaErrorInvalidValue);
    node->ops.swap(ops);
    node->keep(p);
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                   size_t n, const struct cudaMemcpy3DParms *p) {
    const char *fn = "cudaGraphAddMemcpyNode";
    return add_with(fn, pGraphNode, graph, deps, n, cudaGraphNodeTypeMemcpy, [&](std::vector<std::shared_ptr<op>> &ops) {
        return collect(ops, [&] { return graph_copy_3d(fn, p); });
    });
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                     size_t n, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    const char *fn = "cudaGraphAddMemcpyNode1D";
    return add_with(fn, pGraphNode, graph, deps, n, cudaGraphNodeTypeMemcpy, [&](std::vector<std::shared_ptr<op>> &ops) {
        return collect(ops, [&] { return graph_copy_1d(fn, dst, src, count, kind); });
    });
}

// Elements of 1, 2 or 4 bytes, width elements per row, height rows pitch bytes apart, inside one allocation.
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                   size_t n, const struct cudaMemsetParams *p) {
    return add_with("cudaGraphAddMemsetNode", pGraphNode, graph, deps, n, cudaGraphNodeTypeMemset,
                    [&](std::vector<std::shared_ptr<op>> &ops) {
        if (!p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) || !p->width || !p->height)
            return cudaErrorInvalidValue;
        size_t row = p->width * p->elementSize;
        if (p->height > 1 && row > p->pitch) return cudaErrorInvalidValue;
        if (!check_range(p->dst, (p->height - 1) * p->pitch + row)) return cudaErrorInvalidValue;
        memset_node_op *o = new memset_node_op;
        o->dst = (char *)p->dst;
        o->pitch = p->pitch;
        o->width = p->width;
        o->height = p->height;
        o->value = p->value;
        o->size = p->elementSize;
        ops.emplace_back(o);
        return cudaSuccess;
    });
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                 size_t n, const struct cudaHostNodeParams *p) {
    return add_with("cudaGraphAddHostNode", pGraphNode, graph, deps, n, cudaGraphNodeTypeHost,
                    [&](std::vector<std::shared_ptr<op>> &ops) {
        if (!p || !p->fn) return cudaErrorInvalidValue;
        ops.emplace_back(new_host_op(p->fn, p->userData));
        return cudaSuccess;
    });
}

// The child graph is copied: changing or destroying it afterwards changes nothing in this node.
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                       size_t n, cudaGraph_t child) {
    cudaError_t e = add_with("cudaGraphAddChildGraphNode", pGraphNode, graph, deps, n, cudaGraphNodeTypeGraph,
                             [&](std::vector<std::shared_ptr<op>> &) {
        std::lock_guard<std::recursive_mutex> lk(mu());
        return graphs().count(child) && child != graph ? cudaSuccess : cudaErrorInvalidValue;
    });
    if (!e) {
        std::lock_guard<std::recursive_mutex> lk(mu());
        (*pGraphNode)->child = graphs().count(child) ? clone(child) : new CUgraph_st;  // (destroyed meanwhile)
    }
    return e;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                  size_t n) {
    return add_with("cudaGraphAddEmptyNode", pGraphNode, graph, deps, n, cudaGraphNodeTypeEmpty,
                    [](std::vector<std::shared_ptr<op>> &) { return cudaSuccess; });
}

// Each to[i] comes to depend on from[i]; an edge that exists already, a node of another graph or a node
// depending on itself is 1. Edge data other than the default is not supported.
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                     const cudaGraphEdgeData *edgeData, size_t n) {
    const char *fn = "cudaGraphAddDependencies";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (!graphs().count(graph) || (n && (!from || !to))) return fail(fn, cudaErrorInvalidValue);
    static const cudaGraphEdgeData zero = {};
    for (size_t i = 0; i < n; i++) {
        if (!in_graph(graph, from[i]) || !in_graph(graph, to[i]) || from[i] == to[i] ||
            std::count(to[i]->deps.begin(), to[i]->deps.end(), from[i]) ||
            (edgeData && memcmp(&edgeData[i], &zero, sizeof zero)))
            return fail(fn, cudaErrorInvalidValue);
    }
    for (size_t i = 0; i < n; i++) to[i]->deps.push_back(from[i]);
    return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes) {
    if (cudaError_t e = enter("cudaGraphGetNodes")) return e;
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (!graphs().count(graph)) return fail("cudaGraphGetNodes", cudaErrorInvalidValue);
    return fail("cudaGraphGetNodes", list(graph->nodes, nodes, numNodes));
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *roots, size_t *numRoots) {
    if (cudaError_t e = enter("cudaGraphGetRootNodes")) return e;
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (!graphs().count(graph)) return fail("cudaGraphGetRootNodes", cudaErrorInvalidValue);
    std::vector<cudaGraphNode_t> r;
    for (cudaGraphNode_t n : graph->nodes)
        if (n->deps.empty()) r.push_back(n);
    return fail("cudaGraphGetRootNodes", list(r, roots, numRoots));
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                              cudaGraphEdgeData *edgeData, size_t *numEdges) {
    const char *fn = "cudaGraphGetEdges";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (!graphs().count(graph) || !numEdges || (!from != !to) || (edgeData && !from))
        return fail(fn, cudaErrorInvalidValue);
    std::vector<std::pair<cudaGraphNode_t, cudaGraphNode_t>> all;
    for (cudaGraphNode_t n : graph->nodes)
        for (cudaGraphNode_t d : n->deps) all.push_back({d, n});
    if (from) {
        for (size_t i = 0; i < *numEdges; i++) {
            from[i] = i < all.size() ? all[i].first : nullptr;
            to[i] = i < all.size() ? all[i].second : nullptr;
            if (edgeData) edgeData[i] = cudaGraphEdgeData{};
        }
        *numEdges = std::min(*numEdges, all.size());
    } else {
        *numEdges = all.size();
    }
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *deps, cudaGraphEdgeData *edgeData,
                                         size_t *count) {
    const char *fn = "cudaGraphNodeGetDependencies";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (!node) return fail(fn, cudaErrorInvalidValue);
    return fail(fn, list(node->deps, deps, count, edgeData));
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *dependents,
                                           cudaGraphEdgeData *edgeData, size_t *count) {
    const char *fn = "cudaGraphNodeGetDependentNodes";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (!node) return fail(fn, cudaErrorInvalidValue);
    std::vector<cudaGraphNode_t> after;
    for (cudaGraphNode_t n : node->graph->nodes)
        if (std::count(n->deps.begin(), n->deps.end(), node)) after.push_back(n);
    return fail(fn, list(after, dependents, count, edgeData));
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t original) {
    if (cudaError_t e = enter("cudaGraphClone")) return e;
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (!pGraphClone || !graphs().count(original)) return fail("cudaGraphClone", cudaErrorInvalidValue);
    *pGraphClone = clone(original);
    graphs().insert(*pGraphClone);
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType) {
    if (cudaError_t e = enter("cudaGraphNodeGetType")) return e;
    if (!node || !pType) return fail("cudaGraphNodeGetType", cudaErrorInvalidValue);
    *pType = (enum cudaGraphNodeType)node->type;
    return cudaSuccess;
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph) {
    if (cudaError_t e = enter("cudaGraphChildGraphNodeGetGraph")) return e;
    if (!node || !pGraph || !node->child) return fail("cudaGraphChildGraphNodeGetGraph", cudaErrorInvalidValue);
    *pGraph = node->child;  // owned by the node, as in CUDA
    return cudaSuccess;
}

// Device launch (cudaGraphInstantiateFlagDeviceLaunch) is not supported here: 1.
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags) {
    const char *fn = "cudaGraphInstantiate";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (!pGraphExec || !graphs().count(graph) || (flags & ~0xfull) || (flags & cudaGraphInstantiateFlagDeviceLaunch))
        return fail(fn, cudaErrorInvalidValue);
    CUgraphExec_st *x = new CUgraphExec_st;
    if (!flatten(graph, x, true)) {
        delete x;
        return fail(fn, cudaErrorInvalidValue);  // a cycle
    }
    execs().insert(x);
    *pGraphExec = x;
    return cudaSuccess;
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags) {
    return cudaGraphInstantiate(pGraphExec, graph, flags);
}

// Queued on the stream like any other work: its operations run in a topological order of the dependencies
// when a synchronizing call needs them, with the parameters the executable graph had at this launch.
cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
    const char *fn = "cudaGraphLaunch";
    if (cudaError_t e = enter(fn)) return e;
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    if (cudaError_t e = capture_stream_error(stream)) return fail(fn, e);
    graph_op *o = new graph_op;
    {
        std::lock_guard<std::recursive_mutex> lk(mu());
        if (!execs().count(graphExec)) {
            delete o;
            return fail(fn, cudaErrorInvalidValue);
        }
        o->order = graphExec->order;
        o->preds = graphExec->preds;
    }
    o->stream = stream;
    enqueue(o);
    return cudaSuccess;
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
    const char *fn = "cudaGraphUpload";
    if (cudaError_t e = enter(fn)) return e;
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    std::lock_guard<std::recursive_mutex> lk(mu());
    return execs().count(graphExec) ? cudaSuccess : fail(fn, cudaErrorInvalidValue);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
    if (cudaError_t e = enter("cudaGraphExecDestroy")) return e;
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (!execs().erase(graphExec)) return fail("cudaGraphExecDestroy", cudaErrorInvalidValue);
    delete graphExec;  // launches already queued hold their own operations
    return cudaSuccess;
}

// Changes the kernel (arguments, configuration) of an instantiated kernel node for the launches to come.
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *p) {
    const char *fn = "cudaGraphExecKernelNodeSetParams";
    if (cudaError_t e = enter(fn)) return e;
    std::vector<std::shared_ptr<op>> ops;
    if (cudaError_t e = kernel_ops(fn, ops, p)) return fail(fn, e);  // not under the lock (see add_with)
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (!execs().count(x) || !x->first.count(node) || node->type != cudaGraphNodeTypeKernel || ops.size() != 1)
        return fail(fn, cudaErrorInvalidValue);
    x->order[x->first[node]] = ops[0];
    return cudaSuccess;
}

// Takes hGraph's parameters when it has the executable graph's shape: the same nodes (types, operations)
// in the same topological order with the same dependencies; otherwise 910 and the reason in resultInfo.
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t x, cudaGraph_t graph, cudaGraphExecUpdateResultInfo *info) {
    const char *fn = "cudaGraphExecUpdate";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> lk(mu());
    if (!execs().count(x) || !graphs().count(graph) || !info) return fail(fn, cudaErrorInvalidValue);
    CUgraphExec_st y;
    *info = cudaGraphExecUpdateResultInfo{cudaGraphExecUpdateSuccess, nullptr, nullptr};
    if (!flatten(graph, &y, true) || y.shape.size() != x->shape.size() || y.shape_deps != x->shape_deps) {
        info->result = cudaGraphExecUpdateErrorTopologyChanged;
        return fail(fn, cudaErrorGraphExecUpdateFailure);
    }
    for (size_t i = 0; i < y.shape.size(); i++)
        if (y.shape[i] != x->shape[i]) {
            info->result = y.shape[i].first != x->shape[i].first ? cudaGraphExecUpdateErrorNodeTypeChanged
                                                                 : cudaGraphExecUpdateErrorParametersChanged;
            return fail(fn, cudaErrorGraphExecUpdateFailure);
        }
    // the new graph's nodes name the same positions as the old ones
    std::map<cudaGraphNode_t, size_t> first = x->first;
    first.insert(y.first.begin(), y.first.end());
    x->order.swap(y.order);
    x->preds.swap(y.preds);
    x->first.swap(first);
    return cudaSuccess;
}
