// CUDA graphs: the graph a program builds node by node or captures from its streams, and the
// executable form cudaGraphInstantiate makes of it. A launch puts every node on one of the
// executable graph's own streams ("lanes": chains of nodes that follow each other), with events
// for the edges that cross lanes, so independent branches overlap as they would on a GPU.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <vector>

#include "cudart/cuda_abi.h"
#include "runtime/runtime.h"

namespace gpusim::cudart {

class Context;
struct Graph;

struct GraphNode {
    int type = cudaGraphNodeTypeEmpty;
    Graph* owner = nullptr;
    std::vector<GraphNode*> deps, dependents;
    // Kernel: the arguments' bytes are copied when the node is made, as CUDA copies them.
    const void* func = nullptr;
    dim3 grid{1, 1, 1}, block{1, 1, 1};
    unsigned shared = 0;
    std::vector<KernelArg> args;
    std::vector<void*> arg_ptrs;                 // for cudaGraphKernelNodeGetParams
    // Memcpy: a 3D copy, or a linear one (is_1d).
    cudaMemcpy3DParms copy3d{};
    bool is_1d = false;
    void* dst = nullptr;
    const void* src = nullptr;
    size_t bytes = 0;
    cudaMemcpyKind kind = cudaMemcpyDefault;
    cudaMemsetParams memset{};
    cudaHostNodeParams host{};
    std::unique_ptr<Graph> child;                // a child graph node owns a copy of the graph
    cudaEvent_t event = nullptr;                 // event record and wait nodes

    void set_kernel(Context& c, const cudaKernelNodeParams& p);
};

struct Graph {
    std::vector<std::unique_ptr<GraphNode>> nodes;

    GraphNode& add(int type, const GraphNode* const* deps, size_t count);
    void add_edge(GraphNode* from, GraphNode* to);
    void remove_edge(GraphNode* from, GraphNode* to);
    bool has_node(const GraphNode* n) const;
    void destroy(GraphNode* n);
    // A deep copy; `map` receives original -> copy for every node.
    std::unique_ptr<Graph> clone(std::map<const GraphNode*, GraphNode*>* map = nullptr) const;
    // Whether `to` can be reached from `from` along edges.
    bool reaches(const GraphNode* from, const GraphNode* to) const;
};

class GraphExec {
public:
    GraphExec(Context& c, const Graph& g);
    ~GraphExec();
    GraphExec(const GraphExec&) = delete;
    GraphExec& operator=(const GraphExec&) = delete;

    // Queues every node on the lanes; the launch stream waits for all of them.
    void launch(Context& c, StreamId s);
    // The executable's copy of a node of the graph it was made from, or nullptr.
    GraphNode* copy_of(const GraphNode* original) const;
    const Graph& graph() const { return *m_graph; }

private:
    std::map<const GraphNode*, GraphNode*> m_copies;   // filled by the clone below: declared first
    std::unique_ptr<Graph> m_graph;              // child graphs flattened
    std::vector<GraphNode*> m_order;             // topological
    std::map<const GraphNode*, size_t> m_lane_of;
    std::map<const GraphNode*, EventId> m_event_of;   // nodes whose completion another lane awaits
    std::vector<StreamId> m_lanes;
    EventId m_start = 0;
    Runtime* m_rt = nullptr;

    void flatten();
    void order();
    void assign_lanes();
    void run(Context& c, const GraphNode& n, StreamId lane);
};

// Stream capture: while a stream captures, what is queued on it becomes nodes of a graph instead
// of work. Other streams join a capture by waiting on an event recorded in it.
class Captures {
public:
    struct Capture {
        std::unique_ptr<Graph> graph;
        StreamId origin = 0;
        int mode = 0;
        bool invalidated = false;
        unsigned long long id = 0;
    };
    // The capture the stream takes part in, or nullptr.
    Capture* of(StreamId s);
    bool any_global() const;
    void begin(StreamId s, int mode);
    // Ends the capture its origin stream started: the graph, or an error (unjoined, invalidated).
    std::unique_ptr<Graph> end(StreamId s);
    void invalidate(Capture& c);
    void invalidate_global();
    // Adds a node after the stream's current tail; it becomes the tail.
    GraphNode& add(StreamId s, int type);
    void record(EventId e, StreamId s);
    // A wait on an event recorded in a capture: the stream joins it. False when the event was not
    // captured.
    bool wait(StreamId s, EventId e);
    const std::vector<GraphNode*>& tail(StreamId s) { return m_streams.at(s).tail; }

private:
    struct StreamState {
        Capture* capture = nullptr;
        std::vector<GraphNode*> tail;
    };
    std::vector<std::unique_ptr<Capture>> m_captures;
    std::map<StreamId, StreamState> m_streams;
    std::map<EventId, StreamState> m_events;
    unsigned long long m_next_id = 1;
};

} // namespace gpusim::cudart
