// graph_nodes.cpp: a graph's event nodes (record, wait) and memory nodes (alloc, free), made explicitly or
// by stream capture (cudaEventRecordWithFlags / cudaStreamWaitEvent with the External flag, cudaMallocAsync
// and cudaFreeAsync on a capturing stream), following CUDA 13.0's documentation:
// * an alloc node's address is fixed when the node is made and stays valid across launches; a launch
//   allocates it, and a free node of the same graph, a free node in another graph's launch, cudaFree or
//   cudaFreeAsync frees it. Launching an executable graph again while an allocation of its previous launch is
//   not freed fails with 1 (cudaErrorInvalidValue), unless it was instantiated with
//   cudaGraphInstantiateFlagAutoFreeOnLaunch. A graph with memory nodes has one executable graph at a time,
//   is not cloned and is not a child graph.
// * an event record node records its event when it runs; a wait node makes the launch wait for the event's
//   latest record issued before cudaGraphLaunch, as cudaStreamWaitEvent would.
// Here the memory is a device allocation made with the node and kept (counted by cudaMemGetInfo) while the
// graph or an executable graph of it lives, or while a launch's allocation is not freed: a GPU maps it only
// from the alloc node's run to the free.
#include "graph_data.h"
#include <algorithm>

namespace rt {
namespace {
std::map<uintptr_t, std::weak_ptr<graph_alloc>> &allocs() {  // every graph allocation by address (graph_mu)
    static auto &m = *new std::map<uintptr_t, std::weak_ptr<graph_alloc>>;
    return m;
}

// the bytes graph allocations hold now and at most since the mark was reset (graph_mu): what
// cudaDeviceGetGraphMemAttribute reports, as used and as reserved alike (the backend maps only what it uses)
size_t graph_bytes, graph_bytes_high;

std::shared_ptr<graph_alloc> lookup(const void *p) {
    auto it = allocs().find((uintptr_t)p);
    return it == allocs().end() ? nullptr : it->second.lock();
}

// An alloc node after deps: its allocation made now (2 when it does not fit), its address in *ptr.
cudaError_t alloc_node(const char *fn, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, size_t size,
                       cudaGraphNode_t *out, void **ptr) {
    if (!size) return cudaErrorInvalidValue;
    void *p = nullptr;
    if (cudaError_t e = allocate(&p, size, DEVICE, fn, cudawb_site())) return e;
    auto a = std::make_shared<graph_alloc>();
    a->ptr = p;
    a->size = size;
    a->graph = g;
    allocs()[(uintptr_t)p] = a;
    graph_bytes += size;
    graph_bytes_high = std::max(graph_bytes_high, graph_bytes);
    cudaGraphNode_t node = add_node(g, cudaGraphNodeTypeMemAlloc, deps, n);
    node->mem = a;
    *out = node;
    *ptr = p;
    return cudaSuccess;
}

// A free node: p must be a graph allocation, freed at most once in g (1 otherwise, as documented).
cudaError_t free_node(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, void *p, cudaGraphNode_t *out) {
    std::shared_ptr<graph_alloc> a = lookup(p);
    if (!a) return cudaErrorInvalidValue;
    for (cudaGraphNode_t m : g->nodes)
        if (m->type == cudaGraphNodeTypeMemFree && m->mem == a) return cudaErrorInvalidValue;
    cudaGraphNode_t node = add_node(g, cudaGraphNodeTypeMemFree, deps, n);
    node->mem = a;
    *out = node;
    return cudaSuccess;
}

// An event node: a record node runs the record; a wait node's wait is added at each launch. The callers
// check the event first, outside the graph lock (the queue's lock comes first, as in cudaStreamWaitEvent).
cudaError_t event_node(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, cudaEvent_t ev, bool record,
                       cudaGraphNode_t *out) {
    cudaGraphNode_t node = add_node(g, record ? cudaGraphNodeTypeEventRecord : cudaGraphNodeTypeWaitEvent, deps, n);
    node->event = ev;
    if (record) node->ops.emplace_back(new_event_op(ev));
    *out = node;
    return cudaSuccess;
}

// The common path of the cudaGraphAdd*Node calls here: make(deps) under the graph lock.
template <class F>
cudaError_t add(const char *fn, cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, F make) {
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (cudaError_t e = node_args(out, g, deps, n)) return fail(fn, e);
    if (cudaError_t e = make()) return fail(fn, e);
    return cudaSuccess;
}

// The event of an event node of the given type (get), or a new one for it (set): 1 for another node.
cudaError_t node_event(const char *fn, cudaGraphNode_t node, int type, cudaEvent_t *get, cudaEvent_t set) {
    if (cudaError_t e = enter(fn)) return e;
    if (set && !event_valid(set)) return fail(fn, cudaErrorInvalidResourceHandle);
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!node || node->type != type || (!get && !set)) return fail(fn, cudaErrorInvalidValue);
    if (get) {
        *get = node->event;
        return cudaSuccess;
    }
    node->event = set;
    if (type == cudaGraphNodeTypeEventRecord) node->ops.assign(1, std::shared_ptr<op>(new_event_op(set)));
    return cudaSuccess;
}

// The same for an executable graph's copy of the node (its next launches).
cudaError_t exec_event(const char *fn, cudaGraphExec_t x, cudaGraphNode_t node, int type, cudaEvent_t ev) {
    if (cudaError_t e = enter(fn)) return e;
    if (!event_valid(ev)) return fail(fn, cudaErrorInvalidResourceHandle);
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!execs_live(x)) return fail(fn, cudaErrorInvalidValue);
    auto &events = type == cudaGraphNodeTypeEventRecord ? x->records : x->waits;
    if (!node || node->type != type || !events.count(node)) return fail(fn, cudaErrorInvalidValue);
    events[node] = ev;
    if (type == cudaGraphNodeTypeEventRecord && x->first.count(node))
        x->order[x->first[node]] = std::shared_ptr<op>(new_event_op(ev));
    return cudaSuccess;
}
}  // namespace

graph_alloc::~graph_alloc() {
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    allocs().erase((uintptr_t)ptr);
    graph_bytes -= size;
    // a launch's allocation not freed yet stays a device allocation until cudaFree or cudaFreeAsync
    if (!outstanding) release(ptr, DEVICE);
}

bool has_memory_nodes(cudaGraph_t g) {
    for (cudaGraphNode_t n : g->nodes)
        if (n->type == cudaGraphNodeTypeMemAlloc || n->type == cudaGraphNodeTypeMemFree ||
            (n->child && has_memory_nodes(n->child)))
            return true;
    return false;
}

void collect_launch_work(cudaGraph_t g, CUgraphExec_st *x) {
    for (cudaGraphNode_t n : g->nodes) {
        if (n->child) collect_launch_work(n->child, x);
        if (n->type == cudaGraphNodeTypeEventRecord) x->records[n] = n->event;
        if (n->type == cudaGraphNodeTypeWaitEvent) x->waits[n] = n->event;
        if (n->type == cudaGraphNodeTypeMemAlloc) {
            bool freed_here = false;
            for (cudaGraphNode_t m : g->nodes)
                freed_here = freed_here || (m->type == cudaGraphNodeTypeMemFree && m->mem == n->mem);
            if (!freed_here) x->allocs.push_back(n->mem);
        }
        if (n->type == cudaGraphNodeTypeMemFree && n->mem && n->mem->graph != g) x->frees.push_back(n->mem);
    }
}

bool capture_event_node(cudaStream_t s, cudaEvent_t ev, bool record, cudaError_t *e) {
    return capture_add(s, [&](cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, cudaGraphNode_t *out) {
        return event_node(g, deps, n, ev, record, out);
    }, e);
}

bool capture_malloc(const char *fn, cudaStream_t s, void **ptr, size_t size, cudaError_t *e) {
    return capture_add(s, [&](cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, cudaGraphNode_t *out) {
        return alloc_node(fn, g, deps, n, size, out, ptr);
    }, e);
}

bool capture_free(cudaStream_t s, void *ptr, cudaError_t *e) {
    return capture_add(s, [&](cudaGraph_t g, const cudaGraphNode_t *deps, size_t n, cudaGraphNode_t *out) {
        return free_node(g, deps, n, ptr, out);
    }, e);
}

int graph_free(void *ptr) {
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    std::shared_ptr<graph_alloc> a = lookup(ptr);
    if (!a) return -1;
    if (!a->outstanding) return 1;
    a->outstanding = false;
    return 0;
}
} // namespace rt

using namespace rt;

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                        size_t n, cudaEvent_t event) {
    bool valid = event_valid(event);  // (not under the graph lock)
    return add("cudaGraphAddEventRecordNode", pGraphNode, graph, deps, n, [&] {
        return valid ? event_node(graph, deps, n, event, true, pGraphNode) : cudaErrorInvalidResourceHandle;
    });
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                      size_t n, cudaEvent_t event) {
    bool valid = event_valid(event);  // (not under the graph lock)
    return add("cudaGraphAddEventWaitNode", pGraphNode, graph, deps, n, [&] {
        return valid ? event_node(graph, deps, n, event, false, pGraphNode) : cudaErrorInvalidResourceHandle;
    });
}

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out) {
    if (!event_out) return fail("cudaGraphEventRecordNodeGetEvent", cudaErrorInvalidValue);
    return node_event("cudaGraphEventRecordNodeGetEvent", node, cudaGraphNodeTypeEventRecord, event_out, nullptr);
}
cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
    return node_event("cudaGraphEventRecordNodeSetEvent", node, cudaGraphNodeTypeEventRecord, nullptr, event);
}
cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out) {
    if (!event_out) return fail("cudaGraphEventWaitNodeGetEvent", cudaErrorInvalidValue);
    return node_event("cudaGraphEventWaitNodeGetEvent", node, cudaGraphNodeTypeWaitEvent, event_out, nullptr);
}
cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
    return node_event("cudaGraphEventWaitNodeSetEvent", node, cudaGraphNodeTypeWaitEvent, nullptr, event);
}
cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t x, cudaGraphNode_t node, cudaEvent_t event) {
    return exec_event("cudaGraphExecEventRecordNodeSetEvent", x, node, cudaGraphNodeTypeEventRecord, event);
}
cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t x, cudaGraphNode_t node, cudaEvent_t event) {
    return exec_event("cudaGraphExecEventWaitNodeSetEvent", x, node, cudaGraphNodeTypeWaitEvent, event);
}

// Device memory on device 0, readable and writable there (what the workbook needs); other kinds or places: 1.
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                     size_t n, struct cudaMemAllocNodeParams *p) {
    const char *fn = "cudaGraphAddMemAllocNode";
    return add(fn, pGraphNode, graph, deps, n, [&] {
        if (!p || p->poolProps.allocType != cudaMemAllocationTypePinned ||
            p->poolProps.location.type != cudaMemLocationTypeDevice || p->poolProps.location.id != 0)
            return cudaErrorInvalidValue;
        for (size_t i = 0; i < p->accessDescCount; i++)
            if (!p->accessDescs || p->accessDescs[i].location.type != cudaMemLocationTypeDevice ||
                p->accessDescs[i].location.id != 0)
                return cudaErrorInvalidValue;
        return alloc_node(fn, graph, deps, n, p->bytesize, pGraphNode, &p->dptr);
    });
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *out) {
    const char *fn = "cudaGraphMemAllocNodeGetParams";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!node || !out || node->type != cudaGraphNodeTypeMemAlloc) return fail(fn, cudaErrorInvalidValue);
    *out = cudaMemAllocNodeParams{};
    out->poolProps.allocType = cudaMemAllocationTypePinned;
    out->poolProps.location = cudaMemLocation{cudaMemLocationTypeDevice, 0};
    out->bytesize = node->mem->size;
    out->dptr = node->mem->ptr;
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                    size_t n, void *dptr) {
    return add("cudaGraphAddMemFreeNode", pGraphNode, graph, deps, n,
               [&] { return free_node(graph, deps, n, dptr, pGraphNode); });
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out) {
    const char *fn = "cudaGraphMemFreeNodeGetParams";
    if (cudaError_t e = enter(fn)) return e;
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    if (!node || !dptr_out || node->type != cudaGraphNodeTypeMemFree) return fail(fn, cudaErrorInvalidValue);
    *(void **)dptr_out = node->mem ? node->mem->ptr : nullptr;
    return cudaSuccess;
}

// Nothing is cached for graphs here: memory not in use is given back when its graph goes.
cudaError_t cudaDeviceGraphMemTrim(int device) {
    if (cudaError_t e = enter("cudaDeviceGraphMemTrim")) return e;
    return device == 0 ? cudaSuccess : fail("cudaDeviceGraphMemTrim", cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value) {
    const char *fn = "cudaDeviceGetGraphMemAttribute";
    if (cudaError_t e = enter(fn)) return e;
    if (device != 0) return fail(fn, cudaErrorInvalidDevice);
    if (!value || (int)attr < 0 || attr > cudaGraphMemAttrReservedMemHigh) return fail(fn, cudaErrorInvalidValue);
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    bool high = attr == cudaGraphMemAttrUsedMemHigh || attr == cudaGraphMemAttrReservedMemHigh;
    *(unsigned long long *)value = high ? graph_bytes_high : graph_bytes;  // a cuuint64_t, as documented
    return cudaSuccess;
}

// Only the high marks can be set, and only to 0, which restarts them from what is used now.
cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value) {
    const char *fn = "cudaDeviceSetGraphMemAttribute";
    if (cudaError_t e = enter(fn)) return e;
    if (device != 0) return fail(fn, cudaErrorInvalidDevice);
    bool high = attr == cudaGraphMemAttrUsedMemHigh || attr == cudaGraphMemAttrReservedMemHigh;
    if (!value || !high || *(unsigned long long *)value != 0) return fail(fn, cudaErrorInvalidValue);
    std::lock_guard<std::recursive_mutex> lk(graph_mu());
    graph_bytes_high = graph_bytes;
    return cudaSuccess;
}
