// graph.h: the hooks by which stream capture (capture.cpp) sees the rest of the runtime. Each is a cheap test
// while nothing captures (an atomic counter), so uncaptured programs pay nothing measurable.
#ifndef CUDAWB_GRAPH_H
#define CUDAWB_GRAPH_H
#include "internal.h"

namespace rt {
// enqueue(): true when the operation was taken: made a node of the graph its stream captures into, collected
// for a node being built (cudaGraphAdd*Node), or refused (an invalidated capture, the legacy stream while a
// blocking stream captures), the error recorded as the last error. Otherwise it is queued as usual.
bool capture_take(op *o);
// An operation about to be issued to s: 901 when s's capture was invalidated, 906 (invalidating the capture)
// when s is the legacy stream while a blocking stream captures; 0 otherwise.
cudaError_t capture_stream_error(cudaStream_t s);
// True while the work issued to s is recorded rather than run: s captures, or a graph node is being built.
// Copies then neither wait nor stage a pageable source (a graph reads its memory each time it runs).
bool capture_defers(cudaStream_t s);
// cudaEventRecordWithFlags / cudaStreamWaitEvent with the External flag on a capturing stream: an event
// record (or wait) node; true when s captures, *e the call's result.
bool capture_event_node(cudaStream_t s, cudaEvent_t ev, bool record, cudaError_t *e);
// cudaMallocAsync / cudaFreeAsync on a capturing stream: a memory alloc (or free) node (graph_nodes.cpp);
// true when s captures, *e the call's result (*ptr the allocation's address).
bool capture_malloc(const char *fn, cudaStream_t s, void **ptr, size_t size, cudaError_t *e);
bool capture_free(cudaStream_t s, void *ptr, cudaError_t *e);
// cudaFree / cudaFreeAsync outside a graph of an allocation a graph made (graph_nodes.cpp): -1 when ptr is
// not one, 0 when it was freed so (its graph may be launched again), 1 when it was not allocated (a second free).
int graph_free(void *ptr);
// enter(fn): 900 (invalidating the captures that forbid it) for a call CUDA calls potentially unsafe during a
// global or this thread's capture (cudaMalloc, a synchronous cudaMemcpy, ...).
cudaError_t capture_forbids(const char *fn);
// flush_stream(s) (NULL: flush(), everything): 900 when that would wait for a capturing stream, 906 for the
// legacy stream while a blocking stream captures; the captures concerned are invalidated.
cudaError_t capture_sync_error(const cudaStream_t *s);
// cudaEventRecord / cudaStreamWaitEvent on a capturing stream, or waiting for an event recorded in a capture
// (fork and join): true when handled here, *e the call's result.
bool capture_event_record(cudaEvent_t ev, cudaStream_t s, cudaError_t *e);
bool capture_event_wait(cudaStream_t s, cudaEvent_t ev, cudaError_t *e);
// cudaEventSynchronize/Query of an event last recorded in a capture: 907.
cudaError_t capture_event_error(cudaEvent_t ev);
// A stream or event destroyed: a capture it took part in is invalidated, and it is forgotten (a new handle
// may reuse its address).
void capture_forget(cudaStream_t s, cudaEvent_t ev);
// stream.cpp: a host-function operation, for host nodes; whether s is a blocking stream (legacy ordering)
op *new_host_op(cudaHostFn_t fn, void *data);
op *new_event_op(cudaEvent_t ev);               // records ev when it runs
op *new_wait_op();                              // does nothing: its waits_for orders it after an event
void event_queued(cudaEvent_t ev, uint64_t seq);  // ev's record is now the queued operation seq
bool event_pending(cudaEvent_t ev, uint64_t *seq);  // ev is recorded and queued: *seq its record
bool event_valid(cudaEvent_t ev);
bool blocking_stream(cudaStream_t s);
// copy.cpp: a copy's checks (CUDA's, with fn for the error) and its operation, for memcpy nodes
cudaError_t graph_copy_1d(const char *fn, void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t graph_copy_3d(const char *fn, const struct cudaMemcpy3DParms *p);
} // namespace rt
#endif
