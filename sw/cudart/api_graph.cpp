// CUDA graphs: building them node by node, capturing them from streams, instantiating and
// launching them (cudart/graph.h says how a launch runs).
#include <algorithm>
#include <cstdio>

#include "cudart/api.h"

using namespace gpusim;
using namespace gpusim::cudart;

namespace {
GraphNode& node_of(Context& c, cudaGraphNode_t n) {
    auto* node = reinterpret_cast<GraphNode*>(n);
    for (auto& [p, g] : c.graphs)
        if (g->has_node(node)) return *node;
    throw RuntimeError("not a graph node handle", Error::InvalidValue);
}

cudaGraphNode_t handle(GraphNode& n) { return reinterpret_cast<cudaGraphNode_t>(&n); }

// Adds a node of `type` after the given dependencies and returns it through `out`.
template <class Fill>
cudaError_t add_node(cudaGraphNode_t* out, cudaGraph_t g, const cudaGraphNode_t* deps, size_t count, int type, Fill&& fill,
                     const char* api = __builtin_FUNCTION()) {
    return guard([&](Context& c) {
        require(out, "graph node: null pointer");
        Graph& graph = c.graph(g);
        auto dep_nodes = reinterpret_cast<const GraphNode* const*>(deps);
        GraphNode& n = graph.add(type, dep_nodes, count);
        try {
            fill(c, n);
        } catch (...) {
            graph.destroy(&n);
            throw;
        }
        *out = handle(n);
    }, api);
}

// Writes up to *count entries of `list` to `out` (when given) and the list's size to *count.
template <class T, class U>
void list_out(const std::vector<T>& list, U* out, size_t* count) {
    require(count, "graph query: null count");
    if (out) {
        const size_t n = std::min(*count, list.size());
        for (size_t k = 0; k < n; ++k) out[k] = reinterpret_cast<U>(list[k]);
        std::fill(out + n, out + *count, U{});
    } else {
        *count = list.size();
        return;
    }
    *count = std::min(*count, list.size());
}
} // namespace

CUDART_API cudaError_t cudaGraphCreate(cudaGraph_t* g, unsigned int flags) {
    return guard([&](Context& c) {
        require(g && flags == 0, "cudaGraphCreate: null pointer or non-zero flags");
        auto graph = std::make_unique<Graph>();
        *g = reinterpret_cast<cudaGraph_t>(graph.get());
        c.graphs[graph.get()] = std::move(graph);
    });
}

CUDART_API cudaError_t cudaGraphDestroy(cudaGraph_t g) {
    return guard([&](Context& c) { c.graphs.erase(&c.graph(g)); });
}

CUDART_API cudaError_t cudaGraphClone(cudaGraph_t* out, cudaGraph_t g) {
    return guard([&](Context& c) {
        require(out, "cudaGraphClone: null pointer");
        std::unique_ptr<Graph> copy = c.graph(g).clone();
        *out = reinterpret_cast<cudaGraph_t>(copy.get());
        c.graphs[copy.get()] = std::move(copy);
    });
}

CUDART_API cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* out, cudaGraph_t g, const cudaGraphNode_t* deps, size_t count,
                                              const cudaKernelNodeParams* p) {
    return add_node(out, g, deps, count, cudaGraphNodeTypeKernel, [&](Context& c, GraphNode& n) {
        require(p, "cudaGraphAddKernelNode: null parameters");
        n.set_kernel(c, *p);
    });
}

CUDART_API cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* out, cudaGraph_t g, const cudaGraphNode_t* deps, size_t count,
                                              const cudaMemcpy3DParms* p) {
    return add_node(out, g, deps, count, cudaGraphNodeTypeMemcpy, [&](Context&, GraphNode& n) {
        require(p && !p->srcArray && !p->dstArray, "cudaGraphAddMemcpyNode: null parameters or CUDA arrays");
        n.copy3d = *p;
    });
}

CUDART_API cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* out, cudaGraph_t g, const cudaGraphNode_t* deps, size_t count,
                                                void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
    return add_node(out, g, deps, count, cudaGraphNodeTypeMemcpy, [&](Context&, GraphNode& n) {
        n.is_1d = true;
        n.dst = dst;
        n.src = src;
        n.bytes = bytes;
        n.kind = kind;
    });
}

CUDART_API cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* out, cudaGraph_t g, const cudaGraphNode_t* deps, size_t count,
                                              const cudaMemsetParams* p) {
    return add_node(out, g, deps, count, cudaGraphNodeTypeMemset, [&](Context&, GraphNode& n) {
        require(p && (p->elementSize == 1 || p->elementSize == 2 || p->elementSize == 4),
                "cudaGraphAddMemsetNode: null parameters or an element size other than 1, 2 or 4");
        n.memset = *p;
    });
}

CUDART_API cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* out, cudaGraph_t g, const cudaGraphNode_t* deps, size_t count,
                                            const cudaHostNodeParams* p) {
    return add_node(out, g, deps, count, cudaGraphNodeTypeHost, [&](Context&, GraphNode& n) {
        require(p && p->fn, "cudaGraphAddHostNode: null parameters or function");
        n.host = *p;
    });
}

CUDART_API cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* out, cudaGraph_t g, const cudaGraphNode_t* deps, size_t count) {
    return add_node(out, g, deps, count, cudaGraphNodeTypeEmpty, [](Context&, GraphNode&) {});
}

CUDART_API cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* out, cudaGraph_t g, const cudaGraphNode_t* deps,
                                                  size_t count, cudaGraph_t child) {
    return add_node(out, g, deps, count, cudaGraphNodeTypeGraph, [&](Context& c, GraphNode& n) {
        require(&c.graph(child) != &c.graph(g), "cudaGraphAddChildGraphNode: a graph cannot contain itself");
        n.child = c.graph(child).clone();
    });
}

CUDART_API cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t* out, cudaGraph_t g, const cudaGraphNode_t* deps,
                                                   size_t count, cudaEvent_t e) {
    return add_node(out, g, deps, count, cudaGraphNodeTypeEventRecord, [&](Context&, GraphNode& n) { n.event = e; });
}

CUDART_API cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t* out, cudaGraph_t g, const cudaGraphNode_t* deps,
                                                 size_t count, cudaEvent_t e) {
    return add_node(out, g, deps, count, cudaGraphNodeTypeWaitEvent, [&](Context&, GraphNode& n) { n.event = e; });
}

CUDART_API cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t* out) {
    return guard([&](Context& c) {
        GraphNode& n = node_of(c, node);
        require(out && n.type == cudaGraphNodeTypeGraph, "cudaGraphChildGraphNodeGetGraph: null pointer or not a child graph node");
        *out = reinterpret_cast<cudaGraph_t>(n.child.get());
    });
}

CUDART_API cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* p) {
    return guard([&](Context& c) {
        GraphNode& n = node_of(c, node);
        require(p && n.type == cudaGraphNodeTypeKernel, "cudaGraphKernelNodeGetParams: null pointer or not a kernel node");
        *p = cudaKernelNodeParams{const_cast<void*>(n.func), n.grid, n.block, n.shared, n.arg_ptrs.data(), nullptr};
    });
}

CUDART_API cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* p) {
    return guard([&](Context& c) {
        GraphNode& n = node_of(c, node);
        require(p && n.type == cudaGraphNodeTypeKernel, "cudaGraphKernelNodeSetParams: null pointer or not a kernel node");
        n.set_kernel(c, *p);
    });
}

CUDART_API cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms* p) {
    return guard([&](Context& c) {
        GraphNode& n = node_of(c, node);
        require(p && n.type == cudaGraphNodeTypeMemcpy && !n.is_1d, "cudaGraphMemcpyNodeGetParams: not a 3D memcpy node");
        *p = n.copy3d;
    });
}

CUDART_API cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const cudaMemcpy3DParms* p) {
    return guard([&](Context& c) {
        GraphNode& n = node_of(c, node);
        require(p && n.type == cudaGraphNodeTypeMemcpy, "cudaGraphMemcpyNodeSetParams: null pointer or not a memcpy node");
        n.is_1d = false;
        n.copy3d = *p;
    });
}

CUDART_API cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, cudaMemsetParams* p) {
    return guard([&](Context& c) {
        GraphNode& n = node_of(c, node);
        require(p && n.type == cudaGraphNodeTypeMemset, "cudaGraphMemsetNodeGetParams: null pointer or not a memset node");
        *p = n.memset;
    });
}

CUDART_API cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const cudaMemsetParams* p) {
    return guard([&](Context& c) {
        GraphNode& n = node_of(c, node);
        require(p && n.type == cudaGraphNodeTypeMemset, "cudaGraphMemsetNodeSetParams: null pointer or not a memset node");
        n.memset = *p;
    });
}

CUDART_API cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, cudaHostNodeParams* p) {
    return guard([&](Context& c) {
        GraphNode& n = node_of(c, node);
        require(p && n.type == cudaGraphNodeTypeHost, "cudaGraphHostNodeGetParams: null pointer or not a host node");
        *p = n.host;
    });
}

CUDART_API cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const cudaHostNodeParams* p) {
    return guard([&](Context& c) {
        GraphNode& n = node_of(c, node);
        require(p && p->fn && n.type == cudaGraphNodeTypeHost, "cudaGraphHostNodeSetParams: null pointer or not a host node");
        n.host = *p;
    });
}

CUDART_API cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, int* type) {
    return guard([&](Context& c) {
        require(type, "cudaGraphNodeGetType: null pointer");
        *type = node_of(c, node).type;
    });
}

CUDART_API cudaError_t cudaGraphGetNodes(cudaGraph_t g, cudaGraphNode_t* nodes, size_t* count) {
    return guard([&](Context& c) {
        std::vector<GraphNode*> all;
        for (auto& n : c.graph(g).nodes) all.push_back(n.get());
        list_out(all, nodes, count);
    });
}

CUDART_API cudaError_t cudaGraphGetRootNodes(cudaGraph_t g, cudaGraphNode_t* nodes, size_t* count) {
    return guard([&](Context& c) {
        std::vector<GraphNode*> roots;
        for (auto& n : c.graph(g).nodes)
            if (n->deps.empty()) roots.push_back(n.get());
        list_out(roots, nodes, count);
    });
}

CUDART_API cudaError_t cudaGraphGetEdges(cudaGraph_t g, cudaGraphNode_t* from, cudaGraphNode_t* to, cudaGraphEdgeData* data,
                                         size_t* count) {
    return guard([&](Context& c) {
        std::vector<GraphNode*> froms, tos;
        for (auto& n : c.graph(g).nodes)
            for (GraphNode* d : n->dependents) {
                froms.push_back(n.get());
                tos.push_back(d);
            }
        require(count && (!from) == (!to), "cudaGraphGetEdges: null count, or only one of the two arrays");
        if (from && data)
            for (size_t k = 0; k < std::min(*count, froms.size()); ++k) data[k] = cudaGraphEdgeData{};
        size_t n = *count;
        list_out(froms, from, &n);
        list_out(tos, to, count);
    });
}

CUDART_API cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* deps, cudaGraphEdgeData*,
                                                    size_t* count) {
    return guard([&](Context& c) { list_out(node_of(c, node).deps, deps, count); });
}

CUDART_API cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t* out, cudaGraphEdgeData*,
                                                      size_t* count) {
    return guard([&](Context& c) { list_out(node_of(c, node).dependents, out, count); });
}

CUDART_API cudaError_t cudaGraphAddDependencies(cudaGraph_t g, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                                const cudaGraphEdgeData*, size_t count) {
    return guard([&](Context& c) {
        Graph& graph = c.graph(g);
        require(count == 0 || (from && to), "cudaGraphAddDependencies: null arrays");
        for (size_t k = 0; k < count; ++k)
            graph.add_edge(reinterpret_cast<GraphNode*>(from[k]), reinterpret_cast<GraphNode*>(to[k]));
    });
}

CUDART_API cudaError_t cudaGraphRemoveDependencies(cudaGraph_t g, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                                   const cudaGraphEdgeData*, size_t count) {
    return guard([&](Context& c) {
        Graph& graph = c.graph(g);
        require(count == 0 || (from && to), "cudaGraphRemoveDependencies: null arrays");
        for (size_t k = 0; k < count; ++k)
            graph.remove_edge(reinterpret_cast<GraphNode*>(from[k]), reinterpret_cast<GraphNode*>(to[k]));
    });
}

CUDART_API cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
    return guard([&](Context& c) {
        GraphNode& n = node_of(c, node);
        n.owner->destroy(&n);
    });
}

CUDART_API cudaError_t cudaGraphInstantiate(cudaGraphExec_t* out, cudaGraph_t g, unsigned long long flags) {
    return guard([&](Context& c) {
        require(out, "cudaGraphInstantiate: null pointer");
        require(flags == 0 || flags == 1, "cudaGraphInstantiate: only cudaGraphInstantiateFlagAutoFreeOnLaunch is accepted");
        auto exec = std::make_unique<GraphExec>(c, c.graph(g));
        *out = reinterpret_cast<cudaGraphExec_t>(exec.get());
        c.graph_execs[exec.get()] = std::move(exec);
    });
}

CUDART_API cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* out, cudaGraph_t g, unsigned long long flags) {
    return cudaGraphInstantiate(out, g, flags);
}

CUDART_API cudaError_t cudaGraphExecDestroy(cudaGraphExec_t e) {
    return guard([&](Context& c) { c.graph_execs.erase(&c.graph_exec(e)); });
}

CUDART_API cudaError_t cudaGraphLaunch(cudaGraphExec_t e, cudaStream_t s) {
    return guard([&](Context& c) {
        GraphExec& exec = c.graph_exec(e);
        if (GraphNode* n = c.capture_node(s, cudaGraphNodeTypeGraph)) {   // captured as a child graph
            n->child = exec.graph().clone();
            return;
        }
        exec.launch(c, c.stream(s));
    });
}

CUDART_API cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t e, cudaGraphNode_t node, const cudaKernelNodeParams* p) {
    return guard([&](Context& c) {
        GraphNode* n = c.graph_exec(e).copy_of(&node_of(c, node));
        require(n && p && n->type == cudaGraphNodeTypeKernel, "cudaGraphExecKernelNodeSetParams: not a kernel node of the graph");
        n->set_kernel(c, *p);
    });
}

CUDART_API cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t e, cudaGraphNode_t node, const cudaMemcpy3DParms* p) {
    return guard([&](Context& c) {
        GraphNode* n = c.graph_exec(e).copy_of(&node_of(c, node));
        require(n && p && n->type == cudaGraphNodeTypeMemcpy, "cudaGraphExecMemcpyNodeSetParams: not a memcpy node of the graph");
        n->is_1d = false;
        n->copy3d = *p;
    });
}

CUDART_API cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t e, cudaGraphNode_t node, const cudaMemsetParams* p) {
    return guard([&](Context& c) {
        GraphNode* n = c.graph_exec(e).copy_of(&node_of(c, node));
        require(n && p && n->type == cudaGraphNodeTypeMemset, "cudaGraphExecMemsetNodeSetParams: not a memset node of the graph");
        n->memset = *p;
    });
}

CUDART_API cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t e, cudaGraphNode_t node, const cudaHostNodeParams* p) {
    return guard([&](Context& c) {
        GraphNode* n = c.graph_exec(e).copy_of(&node_of(c, node));
        require(n && p && p->fn && n->type == cudaGraphNodeTypeHost, "cudaGraphExecHostNodeSetParams: not a host node of the graph");
        n->host = *p;
    });
}

// ---- stream capture ----

CUDART_API cudaError_t cudaStreamBeginCapture(cudaStream_t s, int mode) {
    return guard([&](Context& c) { c.captures.begin(c.stream(s), mode); });
}

CUDART_API cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t* out) {
    return guard([&](Context& c) {
        require(out, "cudaStreamEndCapture: null pointer");
        std::unique_ptr<Graph> g = c.captures.end(c.stream(s));
        *out = reinterpret_cast<cudaGraph_t>(g.get());
        c.graphs[g.get()] = std::move(g);
    });
}

CUDART_API cudaError_t cudaStreamIsCapturing(cudaStream_t s, int* status) {
    return guard([&](Context& c) {
        require(status, "cudaStreamIsCapturing: null pointer");
        const Captures::Capture* cap = c.captures.of(c.stream(s));
        *status = !cap ? cudaStreamCaptureStatusNone : cap->invalidated ? cudaStreamCaptureStatusInvalidated
                                                                          : cudaStreamCaptureStatusActive;
    });
}

CUDART_API cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, int* status, unsigned long long* id, cudaGraph_t* graph,
                                                const cudaGraphNode_t** deps, const cudaGraphEdgeData** edges, size_t* count) {
    return guard([&](Context& c) {
        require(status, "cudaStreamGetCaptureInfo: null pointer");
        const StreamId sid = c.stream(s);
        const Captures::Capture* cap = c.captures.of(sid);
        *status = !cap ? cudaStreamCaptureStatusNone : cap->invalidated ? cudaStreamCaptureStatusInvalidated
                                                                          : cudaStreamCaptureStatusActive;
        if (id) *id = cap ? cap->id : 0;
        if (graph) *graph = cap ? reinterpret_cast<cudaGraph_t>(cap->graph.get()) : nullptr;
        const std::vector<GraphNode*>* tail = cap ? &c.captures.tail(sid) : nullptr;
        if (deps) *deps = tail && !tail->empty() ? reinterpret_cast<const cudaGraphNode_t*>(tail->data()) : nullptr;
        if (edges) *edges = nullptr;
        if (count) *count = tail ? tail->size() : 0;
    });
}

CUDART_API cudaError_t cudaThreadExchangeStreamCaptureMode(int* mode) {
    return guard([&](Context&) {
        require(mode && *mode >= cudaStreamCaptureModeGlobal && *mode <= cudaStreamCaptureModeRelaxed,
                "cudaThreadExchangeStreamCaptureMode: null pointer or unknown mode");
        static thread_local int current = cudaStreamCaptureModeGlobal;
        std::swap(current, *mode);
    });
}

// ---- event nodes, 1D copies, uploads, and a picture of the graph ----

namespace {
GraphNode& event_node(Context& c, cudaGraphNode_t node, int type, const char* what) {
    GraphNode& n = node_of(c, node);
    require(n.type == type, what);
    return n;
}
} // namespace

CUDART_API cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* e) {
    return guard([&](Context& c) {
        require(e, "cudaGraphEventRecordNodeGetEvent: null pointer");
        *e = event_node(c, node, cudaGraphNodeTypeEventRecord, "not an event record node").event;
    });
}

CUDART_API cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t e) {
    return guard([&](Context& c) { event_node(c, node, cudaGraphNodeTypeEventRecord, "not an event record node").event = e; });
}

CUDART_API cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* e) {
    return guard([&](Context& c) {
        require(e, "cudaGraphEventWaitNodeGetEvent: null pointer");
        *e = event_node(c, node, cudaGraphNodeTypeWaitEvent, "not an event wait node").event;
    });
}

CUDART_API cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t e) {
    return guard([&](Context& c) { event_node(c, node, cudaGraphNodeTypeWaitEvent, "not an event wait node").event = e; });
}

CUDART_API cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t x, cudaGraphNode_t node, cudaEvent_t e) {
    return guard([&](Context& c) {
        GraphNode* n = c.graph_exec(x).copy_of(&node_of(c, node));
        require(n && n->type == cudaGraphNodeTypeEventRecord, "not an event record node of the graph");
        n->event = e;
    });
}

CUDART_API cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t x, cudaGraphNode_t node, cudaEvent_t e) {
    return guard([&](Context& c) {
        GraphNode* n = c.graph_exec(x).copy_of(&node_of(c, node));
        require(n && n->type == cudaGraphNodeTypeWaitEvent, "not an event wait node of the graph");
        n->event = e;
    });
}

namespace {
void set_copy_1d(GraphNode* n, void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
    require(n && n->type == cudaGraphNodeTypeMemcpy, "not a memcpy node of the graph");
    n->is_1d = true;
    n->dst = dst;
    n->src = src;
    n->bytes = bytes;
    n->kind = kind;
}
} // namespace

CUDART_API cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void* dst, const void* src, size_t bytes,
                                                      cudaMemcpyKind kind) {
    return guard([&](Context& c) { set_copy_1d(&node_of(c, node), dst, src, bytes, kind); });
}

CUDART_API cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t x, cudaGraphNode_t node, void* dst, const void* src,
                                                          size_t bytes, cudaMemcpyKind kind) {
    return guard([&](Context& c) { set_copy_1d(c.graph_exec(x).copy_of(&node_of(c, node)), dst, src, bytes, kind); });
}

// The model has nothing to upload ahead of a launch: the executable graph is ready when made.
CUDART_API cudaError_t cudaGraphUpload(cudaGraphExec_t x, cudaStream_t s) {
    return guard([&](Context& c) {
        c.graph_exec(x);
        c.rt().stream_non_blocking(c.stream(s));
    });
}

CUDART_API cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t x, unsigned long long* flags) {
    return guard([&](Context& c) {
        require(flags, "cudaGraphExecGetFlags: null pointer");
        c.graph_exec(x);
        *flags = 0;
    });
}

// The graph in Graphviz's DOT language: a node per graph node, named by its type.
CUDART_API cudaError_t cudaGraphDebugDotPrint(cudaGraph_t g, const char* path, unsigned int) {
    return guard([&](Context& c) {
        require(path, "cudaGraphDebugDotPrint: null path");
        static const char* const kinds[] = {"kernel", "memcpy", "memset", "host", "graph", "empty", "event_wait", "event_record"};
        const Graph& graph = c.graph(g);
        std::FILE* f = std::fopen(path, "w");
        require(f, "cudaGraphDebugDotPrint: cannot write the file", Error::OperatingSystem);
        std::map<const GraphNode*, size_t> id;
        for (const auto& n : graph.nodes) id[n.get()] = id.size();
        std::fprintf(f, "digraph cuda_graph {\n");
        for (const auto& n : graph.nodes) {
            const char* kind = n->type >= 0 && n->type < 8 ? kinds[n->type] : "other";
            if (n->type == cudaGraphNodeTypeKernel) std::fprintf(f, "  n%zu [label=\"%zu: kernel %s\"];\n", id[n.get()], id[n.get()], c.kernel(n->func).name.c_str());
            else std::fprintf(f, "  n%zu [label=\"%zu: %s\"];\n", id[n.get()], id[n.get()], kind);
        }
        for (const auto& n : graph.nodes)
            for (const GraphNode* d : n->dependents) std::fprintf(f, "  n%zu -> n%zu;\n", id[n.get()], id[d]);
        std::fprintf(f, "}\n");
        std::fclose(f);
    });
}
