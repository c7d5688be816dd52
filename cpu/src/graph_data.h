// graph_data.h: what the graph modules share (capture.cpp, graph.cpp, graph_exec.cpp): the graph, node and
// executable-graph objects behind CUDA's handles, and the lock and registry that guard them.
#ifndef CUDAWB_GRAPH_DATA_H
#define CUDAWB_GRAPH_DATA_H
#include "graph.h"
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string.h>
#include <vector>

using rt::op;
namespace rt {
// An allocation made by a graph's alloc node (graph_nodes.cpp): its address is fixed when the node is made
// and stays reserved while the graph or an executable graph of it lives. Outstanding: a launch allocated it
// and nothing has freed it yet (a free node in another graph's launch, cudaFree, cudaFreeAsync).
struct graph_alloc {
    void *ptr = nullptr;
    size_t size = 0;
    cudaGraph_t graph = nullptr;  // the graph whose node made it
    bool outstanding = false;
    ~graph_alloc();
};
} // namespace rt
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
    cudaEvent_t event = nullptr;               // an event record or wait node's event
    std::shared_ptr<rt::graph_alloc> mem;      // an alloc node's allocation, or the one a free node frees
    void keep(const cudaKernelNodeParams *p);  // copies them (graph.cpp)
    void point();                               // after a copy too: the pointers must name this node's bytes
};
struct CUgraph_st {
    std::vector<cudaGraphNode_t> nodes;  // in creation order
    int execs = 0;                       // executable graphs made of it (one at most with memory nodes)
    ~CUgraph_st();
};
struct CUgraphExec_st {
    std::vector<std::shared_ptr<op>> order;          // every operation, dependencies first
    std::vector<std::vector<size_t>> preds;          // ... and the positions each must wait for
    std::map<cudaGraphNode_t, size_t> first;         // a top-level node's first operation in order
    std::vector<std::pair<int, size_t>> shape;       // per top-level node in topological order: type, operations
    std::vector<std::vector<size_t>> shape_deps;     // ... and its dependencies' positions (cudaGraphExecUpdate)
    cudaGraph_t source = nullptr;                    // the graph it was made of
    unsigned long long flags = 0;                    // cudaGraphInstantiateFlag*
    std::vector<std::shared_ptr<rt::graph_alloc>> allocs, frees;  // made and not freed here; freed, made elsewhere
    std::map<cudaGraphNode_t, cudaEvent_t> records, waits;        // event nodes and their events
};

namespace rt {
std::recursive_mutex &graph_mu();                     // guards every graph, node and executable graph
std::set<cudaGraph_t> &live_graphs();                 // the graphs not destroyed
extern __thread std::vector<op *> *node_sink;         // a node being built collects its operations here
cudaGraphNode_t add_node(cudaGraph_t g, int type, const cudaGraphNode_t *deps, size_t n);
// The checks common to every cudaGraphAdd*Node (graph.cpp): 0 or 1.
cudaError_t node_args(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps, size_t n);
// graph_nodes.cpp: whether g (or a child graph of it) has memory nodes; what an executable graph of g
// allocates, frees, records and waits for at each launch
bool has_memory_nodes(cudaGraph_t g);
void collect_launch_work(cudaGraph_t g, CUgraphExec_st *x);
bool execs_live(cudaGraphExec_t x);  // an executable graph not destroyed (graph_exec.cpp; under graph_mu)
// A node made by a call on a capturing stream s that is not a queued operation (an event or memory node):
// make adds it to the capture's graph after the stream's current nodes, and it becomes their only one.
// False when s does not capture; otherwise *e is the call's result.
typedef std::function<cudaError_t(cudaGraph_t, const cudaGraphNode_t *, size_t, cudaGraphNode_t *)> node_maker;
bool capture_add(cudaStream_t s, const node_maker &make, cudaError_t *e);
// A kernel node's operation, made by the launch-by-address path (its checks and errors, as fn's).
cudaError_t kernel_ops(const char *fn, std::vector<std::shared_ptr<op>> &ops, const cudaKernelNodeParams *p);
} // namespace rt
#endif
