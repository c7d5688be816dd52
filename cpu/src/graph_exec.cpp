// graph_exec.cpp: executable graphs. cudaGraphInstantiate orders a graph's operations topologically (child
// graphs flattened in place), each with the positions it waits for; cudaGraphLaunch queues one operation on
// the stream that runs them all, in that order or, under CUDAWB_SCHEDULE, another that keeps the dependencies.
#include "graph_data.h"
#include <algorithm>

namespace rt {
namespace {
std::set<cudaGraphExec_t> &execs() { static auto &s = *new std::set<cudaGraphExec_t>; return s; }

// The operation cudaGraphLaunch queues: the executable graph's operations as they were at the launch.
struct graph_op : op {
    std::vector<std::shared_ptr<op>> order;
    std::vector<std::vector<size_t>> preds;
    std::vector<std::shared_ptr<graph_alloc>> keep;  // its allocations stay while it is queued
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

}  // namespace
} // namespace rt

bool rt::execs_live(cudaGraphExec_t x) { return execs().count(x) > 0; }

using namespace rt;

// Device launch (cudaGraphInstantiateFlagDeviceLaunch) is not supported here: 1.
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags) {
    const char *fn = "cudaGraphInstantiate";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!pGraphExec || !live_graphs().count(graph) || (flags & ~0xfull) ||
        (flags & cudaGraphInstantiateFlagDeviceLaunch))
        return fail(fn, cudaErrorInvalidValue);
    // with memory nodes, one executable graph at a time (CUDA names no code: 1 here, to be measured)
    if (graph->execs && has_memory_nodes(graph)) return fail(fn, cudaErrorInvalidValue);
    CUgraphExec_st *x = new CUgraphExec_st;
    if (!flatten(graph, x, true)) {
        delete x;
        return fail(fn, cudaErrorInvalidValue);  // a cycle
    }
    x->source = graph;
    x->flags = flags;
    collect_launch_work(graph, x);
    graph->execs++;
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
    std::map<cudaGraphNode_t, cudaEvent_t> records, waits;
    {
        std::lock_guard<std::recursive_mutex> lk(graph_mu());
        if (!execs().count(graphExec)) {
            delete o;
            return fail(fn, cudaErrorInvalidValue);
        }
        // an allocation of the previous launch not freed since: 1, unless freed on launch (documented)
        for (auto &a : graphExec->allocs)
            if (a->outstanding && !(graphExec->flags & cudaGraphInstantiateFlagAutoFreeOnLaunch)) {
                delete o;
                return fail(fn, cudaErrorInvalidValue);
            }
        for (auto &a : graphExec->allocs) a->outstanding = true;
        for (auto &a : graphExec->frees) a->outstanding = false;
        o->order = graphExec->order;
        o->preds = graphExec->preds;
        o->keep = graphExec->allocs;
        o->keep.insert(o->keep.end(), graphExec->frees.begin(), graphExec->frees.end());
        records = graphExec->records;
        waits = graphExec->waits;
    }
    o->stream = stream;
    // a wait node: the launch waits for the event's latest record issued before it, as cudaStreamWaitEvent
    for (auto &w : waits) {
        uint64_t seq;
        if (!event_pending(w.second, &seq)) continue;
        op *wait = new_wait_op();
        wait->stream = stream;
        enqueue(wait);
        wait->waits_for = seq;
    }
    enqueue(o);
    // a record node: its event completes with the launch (cudaEventSynchronize waits for it)
    for (auto &r : records) event_queued(r.second, o->seq);
    return cudaSuccess;
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
    const char *fn = "cudaGraphUpload";
    if (cudaError_t e = enter(fn)) return e;
    if (!valid_stream(stream)) return fail(fn, cudaErrorInvalidResourceHandle);
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    return execs().count(graphExec) ? cudaSuccess : fail(fn, cudaErrorInvalidValue);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
    if (cudaError_t e = enter("cudaGraphExecDestroy")) return e;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!execs().erase(graphExec)) return fail("cudaGraphExecDestroy", cudaErrorInvalidValue);
    if (live_graphs().count(graphExec->source)) graphExec->source->execs--;
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
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
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
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!execs().count(x) || !live_graphs().count(graph) || !info) return fail(fn, cudaErrorInvalidValue);
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
