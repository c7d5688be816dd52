// graph_data.h: what the graph modules share (capture.cpp, graph.cpp, graph_exec.cpp): the graph, node and
// executable-graph objects behind CUDA's handles, and the lock and registry that guard them.
#ifndef CUDAWB_GRAPH_DATA_H
#define CUDAWB_GRAPH_DATA_H
#include "graph.h"
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string.h>
#include <vector>

using rt::op;
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
    void keep(const cudaKernelNodeParams *p);  // copies them (graph.cpp)
    void point();                               // after a copy too: the pointers must name this node's bytes
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

namespace rt {
std::recursive_mutex &graph_mu();                     // guards every graph, node and executable graph
std::set<cudaGraph_t> &live_graphs();                 // the graphs not destroyed
extern __thread std::vector<op *> *node_sink;         // a node being built collects its operations here
cudaGraphNode_t add_node(cudaGraph_t g, int type, const cudaGraphNode_t *deps, size_t n);
// A kernel node's operation, made by the launch-by-address path (its checks and errors, as fn's).
cudaError_t kernel_ops(const char *fn, std::vector<std::shared_ptr<op>> &ops, const cudaKernelNodeParams *p);
} // namespace rt
#endif
