// graph.cpp: CUDA graphs built node by node. A node holds the same operations the stream queue runs
// (stream.cpp's op: a kernel with its copied arguments, a copy, a memset, a host function), shared, so that
// one node may run many times. Each is made by the ordinary call's own checks with the operation collected
// instead of queued (node_sink); capture.cpp makes nodes of captured work, graph_exec.cpp runs them.
#include "graph_data.h"
#include "../include/cudawb/by_address.h"
#include <algorithm>

void CUgraphNode_st::keep(const cudaKernelNodeParams *p) {
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
void CUgraphNode_st::point() {
    arg_ptrs.clear();
    for (size_t at : arg_at) arg_ptrs.push_back(arg_bytes.data() + at);
    params.kernelParams = arg_ptrs.empty() ? nullptr : arg_ptrs.data();
}

CUgraph_st::~CUgraph_st() {
    for (cudaGraphNode_t n : nodes) {
        delete n->child;
        delete n;
    }
}

namespace rt {
std::recursive_mutex &graph_mu() { static std::recursive_mutex &m = *new std::recursive_mutex; return m; }
std::set<cudaGraph_t> &live_graphs() { static auto &s = *new std::set<cudaGraph_t>; return s; }
__thread std::vector<op *> *node_sink;

cudaGraphNode_t add_node(cudaGraph_t g, int type, const cudaGraphNode_t *deps, size_t n) {
    cudaGraphNode_t node = new CUgraphNode_st;
    node->graph = g;
    node->type = type;
    node->deps.assign(deps, deps + n);
    g->nodes.push_back(node);
    return node;
}

namespace {
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

bool in_graph(cudaGraph_t g, cudaGraphNode_t n) {
    return n && std::find(g->nodes.begin(), g->nodes.end(), n) != g->nodes.end();
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


// Runs `issue` (an ordinary call's checks and queueing) with its operations collected: they become the node's.
template <class F> cudaError_t collect(std::vector<std::shared_ptr<op>> &ops, F issue) {
    std::vector<op *> got;
    std::vector<op *> *saved = node_sink;
    node_sink = &got;
    cudaError_t e = issue();
    node_sink = saved;
    for (op *o : got) {
        if (e) delete o;
        else ops.emplace_back(o);
    }
    return e;
}

}  // namespace

cudaError_t node_args(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n) {
    if (!out || !live_graphs().count(g) || (n && !deps)) return cudaErrorInvalidValue;
    for (size_t i = 0; i < n; i++)
        if (!in_graph(g, deps[i]) || std::count(deps, deps + n, deps[i]) > 1) return cudaErrorInvalidValue;
    return cudaSuccess;
}

cudaError_t kernel_ops(const char *fn, std::vector<std::shared_ptr<op>> &ops, const cudaKernelNodeParams *p) {
    if (!p || p->extra) return cudaErrorInvalidValue;  // the "extra" packing is not supported here
    return collect(ops, [&] {
        return cudawb::launch_by_address(p->func, p->gridDim, p->blockDim, p->kernelParams, p->sharedMemBytes, 0, 0,
                                         fn, cudawb_site());
    });
}

namespace {
template <class F>
cudaError_t add_with(const char *fn, cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n,
                     int type, F issue) {
    if (cudaError_t e = enter(fn)) return e;
    {
        std::lock_guard<std::recursive_mutex> lk(graph_mu());
        if (cudaError_t e = node_args(out, g, deps, n)) return fail(fn, e);
    }
    // not under the lock: the call's checks take the queue's, which is held around this one elsewhere
    std::vector<std::shared_ptr<op>> ops;
    if (cudaError_t e = issue(ops)) return fail(fn, e);
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
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
} // namespace rt

using namespace rt;

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags) {
    if (cudaError_t e = enter("cudaGraphCreate")) return e;
    if (!pGraph || flags) return fail("cudaGraphCreate", cudaErrorInvalidValue);
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    *pGraph = new CUgraph_st;
    live_graphs().insert(*pGraph);
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
    if (cudaError_t e = enter("cudaGraphDestroy")) return e;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!live_graphs().erase(graph)) return fail("cudaGraphDestroy", cudaErrorInvalidValue);
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
        std::lock_guard<std::recursive_mutex> lk(graph_mu());
        (*pGraphNode)->keep(p);
    }
    return e;
}

// The parameters a kernel node was made or last set with, its arguments as copied then. A kernel node made
// by stream capture does not keep them here: 1 (not identical: a GPU answers them).
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *p) {
    const char *fn = "cudaGraphKernelNodeGetParams";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!node || !p || !node->has_params) return fail(fn, cudaErrorInvalidValue);
    *p = node->params;
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *p) {
    const char *fn = "cudaGraphKernelNodeSetParams";
    if (cudaError_t e = enter(fn)) return e;
    std::vector<std::shared_ptr<op>> ops;
    if (cudaError_t e = kernel_ops(fn, ops, p)) return fail(fn, e);  // not under the lock (see add_with)
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!node || !live_graphs().count(node->graph) || node->type != cudaGraphNodeTypeKernel)
        return fail(fn, cudaErrorInvalidValue);
    node->ops.swap(ops);
    node->keep(p);
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                   size_t n, const struct cudaMemcpy3DParms *p) {
    const char *fn = "cudaGraphAddMemcpyNode";
    auto copy = [&](std::vector<std::shared_ptr<op>> &ops) {
        return collect(ops, [&] { return graph_copy_3d(fn, p); });
    };
    return add_with(fn, pGraphNode, graph, deps, n, cudaGraphNodeTypeMemcpy, copy);
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                     size_t n, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    const char *fn = "cudaGraphAddMemcpyNode1D";
    auto copy = [&](std::vector<std::shared_ptr<op>> &ops) {
        return collect(ops, [&] { return graph_copy_1d(fn, dst, src, count, kind); });
    };
    return add_with(fn, pGraphNode, graph, deps, n, cudaGraphNodeTypeMemcpy, copy);
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
        std::lock_guard<std::recursive_mutex> lk(graph_mu());
        // a graph with memory nodes is not copied into another (CUDA moves it, with cudaGraphAddNode's ownership)
        return live_graphs().count(child) && child != graph && !has_memory_nodes(child) ? cudaSuccess
                                                                                       : cudaErrorInvalidValue;
    });
    if (!e) {
        std::lock_guard<std::recursive_mutex> lk(graph_mu());
        (*pGraphNode)->child = live_graphs().count(child) ? clone(child) : new CUgraph_st;  // (destroyed meanwhile)
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
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!live_graphs().count(graph) || (n && (!from || !to))) return fail(fn, cudaErrorInvalidValue);
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
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!live_graphs().count(graph)) return fail("cudaGraphGetNodes", cudaErrorInvalidValue);
    return fail("cudaGraphGetNodes", list(graph->nodes, nodes, numNodes));
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *roots, size_t *numRoots) {
    if (cudaError_t e = enter("cudaGraphGetRootNodes")) return e;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!live_graphs().count(graph)) return fail("cudaGraphGetRootNodes", cudaErrorInvalidValue);
    std::vector<cudaGraphNode_t> r;
    for (cudaGraphNode_t n : graph->nodes)
        if (n->deps.empty()) r.push_back(n);
    return fail("cudaGraphGetRootNodes", list(r, roots, numRoots));
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                              cudaGraphEdgeData *edgeData, size_t *numEdges) {
    const char *fn = "cudaGraphGetEdges";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!live_graphs().count(graph) || !numEdges || (!from != !to) || (edgeData && !from))
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
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!node) return fail(fn, cudaErrorInvalidValue);
    return fail(fn, list(node->deps, deps, count, edgeData));
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *dependents,
                                           cudaGraphEdgeData *edgeData, size_t *count) {
    const char *fn = "cudaGraphNodeGetDependentNodes";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!node) return fail(fn, cudaErrorInvalidValue);
    std::vector<cudaGraphNode_t> after;
    for (cudaGraphNode_t n : node->graph->nodes)
        if (std::count(n->deps.begin(), n->deps.end(), node)) after.push_back(n);
    return fail(fn, list(after, dependents, count, edgeData));
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t original) {
    if (cudaError_t e = enter("cudaGraphClone")) return e;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!pGraphClone || !live_graphs().count(original) || has_memory_nodes(original))  // (CUDA: not cloned)
        return fail("cudaGraphClone", cudaErrorInvalidValue);
    *pGraphClone = clone(original);
    live_graphs().insert(*pGraphClone);
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

