/* cuda_runtime.h: what nvcc makes visible to every .cu file (it force-includes this header), for the CPU backend. */
#ifndef CUDAWB_CUDA_RUNTIME_H
#define CUDAWB_CUDA_RUNTIME_H
#define __CUDA_RUNTIME_H__ /* CUDA's own guard, which helper headers test */
/* the C headers nvcc 13's own cuda_runtime.h pulls in, so code that compiles with nvcc compiles here */
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuda_runtime_api.h"
#include "driver_functions.h"
#include "cudawb/device.h"
#include "cudawb/launch.h"
#include "cudawb/lockstep.h"
#include "cudawb/warp.h"
#include "cudawb/by_address.h"

/* The C++ overloads CUDA 13's cuda_runtime.h still gives, with its behaviour: the five-argument form of
   CUDA 11 leaves the error node and the log alone and instantiates with no flags. */
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                               cudaGraphNode_t *pErrorNode, char *pLogBuffer, size_t bufferSize) {
    (void)pErrorNode;
    (void)pLogBuffer;
    (void)bufferSize;
    return cudaGraphInstantiate(pGraphExec, graph, 0ULL);
}
/* CUDA 11's form of cudaGraphExecUpdate: the result and the node that caused it, from CUDA 12's result info. */
static inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                              cudaGraphNode_t *hErrorNode_out,
                                              enum cudaGraphExecUpdateResult *updateResult_out) {
    cudaGraphExecUpdateResultInfo info;
    cudaError_t status = cudaGraphExecUpdate(hGraphExec, hGraph, &info);
    if (hErrorNode_out) *hErrorNode_out = info.errorNode;
    if (updateResult_out) *updateResult_out = info.result;
    return status;
}
#endif
