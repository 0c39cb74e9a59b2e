#include "cudart/graph.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "cudart/api.h"
#include "cudart/copies.h"

namespace gpusim::cudart {

void GraphNode::set_kernel(Context& c, const cudaKernelNodeParams& p) {
    require(!p.extra, "kernel node: the 'extra' argument form is not supported; pass kernelParams", Error::NotSupported);
    const KernelInfo& k = c.kernel(p.func);
    func = p.func;
    grid = p.gridDim;
    block = p.blockDim;
    shared = p.sharedMemBytes;
    args = kernel_arguments(k, p.kernelParams);
    arg_ptrs.clear();
    for (KernelArg& a : args) arg_ptrs.push_back(a.bytes.data());
}

GraphNode& Graph::add(int type, const GraphNode* const* deps, size_t count) {
    require(count == 0 || deps, "graph node: null dependency array");
    for (size_t k = 0; k < count; ++k) require(has_node(deps[k]), "graph node: a dependency is not a node of this graph");
    auto n = std::make_unique<GraphNode>();
    n->type = type;
    n->owner = this;
    nodes.push_back(std::move(n));
    GraphNode& node = *nodes.back();
    for (size_t k = 0; k < count; ++k) add_edge(const_cast<GraphNode*>(deps[k]), &node);
    return node;
}

void Graph::add_edge(GraphNode* from, GraphNode* to) {
    require(has_node(from) && has_node(to) && from != to, "graph edge: both ends must be distinct nodes of the graph");
    if (std::find(to->deps.begin(), to->deps.end(), from) != to->deps.end()) return;
    require(!reaches(to, from), "graph edge: it would make a cycle");
    to->deps.push_back(from);
    from->dependents.push_back(to);
}

void Graph::remove_edge(GraphNode* from, GraphNode* to) {
    auto it = std::find(to->deps.begin(), to->deps.end(), from);
    require(it != to->deps.end(), "graph edge: no such edge");
    to->deps.erase(it);
    from->dependents.erase(std::find(from->dependents.begin(), from->dependents.end(), to));
}

bool Graph::has_node(const GraphNode* n) const {
    return std::any_of(nodes.begin(), nodes.end(), [&](const auto& p) { return p.get() == n; });
}

void Graph::destroy(GraphNode* n) {
    require(has_node(n), "graph node: not a node of this graph");
    for (GraphNode* d : std::vector<GraphNode*>(n->deps)) remove_edge(d, n);
    for (GraphNode* d : std::vector<GraphNode*>(n->dependents)) remove_edge(n, d);
    nodes.erase(std::find_if(nodes.begin(), nodes.end(), [&](const auto& p) { return p.get() == n; }));
}

bool Graph::reaches(const GraphNode* from, const GraphNode* to) const {
    std::vector<const GraphNode*> todo{from};
    std::set<const GraphNode*> seen;
    while (!todo.empty()) {
        const GraphNode* n = todo.back();
        todo.pop_back();
        if (n == to) return true;
        if (!seen.insert(n).second) continue;
        for (const GraphNode* d : n->dependents) todo.push_back(d);
    }
    return false;
}

std::unique_ptr<Graph> Graph::clone(std::map<const GraphNode*, GraphNode*>* map) const {
    auto g = std::make_unique<Graph>();
    std::map<const GraphNode*, GraphNode*> local;
    std::map<const GraphNode*, GraphNode*>& m = map ? *map : local;
    for (const auto& n : nodes) {
        auto c = std::make_unique<GraphNode>();
        const GraphNode& o = *n;
        c->type = o.type;
        c->owner = g.get();
        c->func = o.func;
        c->grid = o.grid;
        c->block = o.block;
        c->shared = o.shared;
        c->args = o.args;
        for (KernelArg& a : c->args) c->arg_ptrs.push_back(a.bytes.data());
        c->copy3d = o.copy3d;
        c->is_1d = o.is_1d;
        c->dst = o.dst;
        c->src = o.src;
        c->bytes = o.bytes;
        c->kind = o.kind;
        c->memset = o.memset;
        c->host = o.host;
        if (o.child) c->child = o.child->clone();
        c->event = o.event;
        m[&o] = c.get();
        g->nodes.push_back(std::move(c));
    }
    for (const auto& n : nodes)
        for (const GraphNode* d : n->deps) {
            m[n.get()]->deps.push_back(m[d]);
            m[d]->dependents.push_back(m[n.get()]);
        }
    return g;
}

// ---- executable graphs ----

GraphExec::GraphExec(Context& c, const Graph& g) : m_graph(g.clone(&m_copies)), m_rt(&c.rt()) {
    flatten();
    order();
    assign_lanes();
    m_start = m_rt->create_event();
}

GraphExec::~GraphExec() {
    try {
        for (StreamId s : m_lanes) m_rt->destroy_stream(s);
        for (auto& [n, e] : m_event_of) m_rt->destroy_event(e);
        m_rt->destroy_event(m_start);
    } catch (const RuntimeError&) {
        // a device reset took them already
    }
}

GraphNode* GraphExec::copy_of(const GraphNode* original) const {
    auto it = m_copies.find(original);
    return it == m_copies.end() ? nullptr : it->second;
}

// A child graph node becomes the child's nodes: its roots take the node's dependencies, and the
// node's dependents wait for the child's sinks.
void GraphExec::flatten() {
    for (size_t k = 0; k < m_graph->nodes.size(); ++k) {
        GraphNode* n = m_graph->nodes[k].get();
        if (n->type != cudaGraphNodeTypeGraph) continue;
        std::unique_ptr<Graph> child = n->child->clone();
        n->type = cudaGraphNodeTypeEmpty;   // the node stays as the child's entry
        GraphNode* exit = &m_graph->add(cudaGraphNodeTypeEmpty, nullptr, 0);
        for (GraphNode* d : std::vector<GraphNode*>(n->dependents)) {
            m_graph->remove_edge(n, d);
            m_graph->add_edge(exit, d);
        }
        std::vector<GraphNode*> inner;
        for (auto& cn : child->nodes) {
            cn->owner = m_graph.get();
            inner.push_back(cn.get());
            m_graph->nodes.push_back(std::move(cn));
        }
        for (GraphNode* cn : inner) {
            if (cn->deps.empty()) m_graph->add_edge(n, cn);
            if (cn->dependents.empty()) m_graph->add_edge(cn, exit);
        }
        if (inner.empty()) m_graph->add_edge(n, exit);
    }
}

void GraphExec::order() {
    std::map<const GraphNode*, size_t> waiting;
    std::vector<GraphNode*> ready;
    for (auto& n : m_graph->nodes) {
        waiting[n.get()] = n->deps.size();
        if (n->deps.empty()) ready.push_back(n.get());
    }
    while (!ready.empty()) {
        GraphNode* n = ready.front();
        ready.erase(ready.begin());
        m_order.push_back(n);
        for (GraphNode* d : n->dependents)
            if (--waiting[d] == 0) ready.push_back(d);
    }
}

// A node continues the lane of a dependency that is its lane's last node so far; otherwise it
// starts a lane. Nodes whose completion another lane (or the launch stream) awaits get an event.
void GraphExec::assign_lanes() {
    std::vector<const GraphNode*> last;   // per lane
    for (GraphNode* n : m_order) {
        size_t lane = last.size();
        for (const GraphNode* d : n->deps)
            if (last[m_lane_of[d]] == d) { lane = m_lane_of[d]; break; }
        if (lane == last.size()) {
            last.push_back(n);
            m_lanes.push_back(m_rt->create_stream(true));
        }
        last[lane] = n;
        m_lane_of[n] = lane;
    }
    for (GraphNode* n : m_order) {
        bool needed = n->dependents.empty();
        for (const GraphNode* d : n->dependents) needed |= m_lane_of[d] != m_lane_of[n];
        if (needed) m_event_of[n] = m_rt->create_event();
    }
}

void GraphExec::launch(Context& c, StreamId s) {
    Runtime& rt = c.rt();
    rt.record_event(m_start, s);
    for (GraphNode* n : m_order) {
        const StreamId lane = m_lanes[m_lane_of[n]];
        if (n->deps.empty()) rt.stream_wait_event(lane, m_start);
        for (const GraphNode* d : n->deps)
            if (m_lane_of[d] != m_lane_of[n]) rt.stream_wait_event(lane, m_event_of.at(d));
        run(c, *n, lane);
        if (auto e = m_event_of.find(n); e != m_event_of.end()) rt.record_event(e->second, lane);
    }
    for (GraphNode* n : m_order)
        if (n->dependents.empty()) rt.stream_wait_event(s, m_event_of.at(n));
}

void GraphExec::run(Context& c, const GraphNode& n, StreamId lane) {
    Runtime& rt = c.rt();
    switch (n.type) {
    case cudaGraphNodeTypeKernel: {
        const KernelInfo& k = c.kernel(n.func);
        rt.launch_async(k, Dim3{n.grid.x, n.grid.y, n.grid.z}, Dim3{n.block.x, n.block.y, n.block.z}, n.shared, n.args, lane);
        break;
    }
    case cudaGraphNodeTypeMemcpy:
        if (n.is_1d) copy(rt, n.dst, n.src, n.bytes, n.kind, lane, false);
        else copy_3d(rt, &n.copy3d, lane, false);
        break;
    case cudaGraphNodeTypeMemset: {
        const cudaMemsetParams& m = n.memset;
        fill_2d(rt, m.dst, m.pitch, m.value, m.elementSize, m.width, m.height, lane);
        break;
    }
    case cudaGraphNodeTypeHost: {
        const cudaHostNodeParams h = n.host;
        rt.launch_host_function(lane, [h](Error) { h.fn(h.userData); }, false);
        c.host_thread().nudge();
        break;
    }
    case cudaGraphNodeTypeEventRecord: rt.record_event(c.event(n.event), lane); break;
    case cudaGraphNodeTypeWaitEvent: rt.stream_wait_event(lane, c.event(n.event)); break;
    default: break;   // empty nodes order their neighbours only
    }
}

// ---- stream capture ----

Captures::Capture* Captures::of(StreamId s) {
    auto it = m_streams.find(s);
    return it == m_streams.end() ? nullptr : it->second.capture;
}

bool Captures::any_global() const {
    return std::any_of(m_captures.begin(), m_captures.end(),
                       [](const auto& c) { return c->mode == cudaStreamCaptureModeGlobal && !c->invalidated; });
}

void Captures::begin(StreamId s, int mode) {
    require(s != 0, "cudaStreamBeginCapture: the legacy default stream cannot be captured", Error::StreamCaptureUnsupported);
    require(!of(s), "cudaStreamBeginCapture: the stream is already capturing", Error::IllegalState);
    require(mode >= cudaStreamCaptureModeGlobal && mode <= cudaStreamCaptureModeRelaxed, "cudaStreamBeginCapture: unknown mode");
    auto c = std::make_unique<Capture>();
    c->graph = std::make_unique<Graph>();
    c->origin = s;
    c->mode = mode;
    c->id = m_next_id++;
    m_streams[s] = StreamState{c.get(), {}};
    m_captures.push_back(std::move(c));
}

std::unique_ptr<Graph> Captures::end(StreamId s) {
    Capture* c = of(s);
    require(c && c->origin == s, "cudaStreamEndCapture: the stream did not begin a capture", Error::IllegalState);
    // Every stream that joined must have been joined back: its tail precedes the origin's.
    bool joined = true;
    for (auto& [id, st] : m_streams) {
        if (st.capture != c || id == s) continue;
        for (const GraphNode* t : st.tail) {
            bool reached = false;
            for (const GraphNode* o : m_streams[s].tail) reached |= c->graph->reaches(t, o);
            joined &= reached;
        }
    }
    const bool invalidated = c->invalidated;
    std::unique_ptr<Graph> g = std::move(c->graph);
    for (auto it = m_streams.begin(); it != m_streams.end();) it = it->second.capture == c ? m_streams.erase(it) : std::next(it);
    for (auto it = m_events.begin(); it != m_events.end();) it = it->second.capture == c ? m_events.erase(it) : std::next(it);
    m_captures.erase(std::find_if(m_captures.begin(), m_captures.end(), [&](const auto& p) { return p.get() == c; }));
    require(!invalidated, "cudaStreamEndCapture: the capture was invalidated by an operation it cannot hold",
            Error::StreamCaptureInvalidated);
    require(joined, "cudaStreamEndCapture: a stream that joined the capture was not joined back to the origin stream",
            Error::StreamCaptureUnjoined);
    return g;
}

void Captures::invalidate(Capture& c) { c.invalidated = true; }

void Captures::invalidate_global() {
    for (auto& c : m_captures)
        if (c->mode == cudaStreamCaptureModeGlobal) c->invalidated = true;
}

GraphNode& Captures::add(StreamId s, int type) {
    StreamState& st = m_streams.at(s);
    require(!st.capture->invalidated, "the stream's capture was invalidated", Error::StreamCaptureInvalidated);
    GraphNode& n = st.capture->graph->add(type, st.tail.data(), st.tail.size());
    st.tail = {&n};
    return n;
}

void Captures::record(EventId e, StreamId s) { m_events[e] = m_streams.at(s); }

bool Captures::wait(StreamId s, EventId e) {
    auto ev = m_events.find(e);
    if (ev == m_events.end()) return false;
    auto it = m_streams.find(s);
    if (it == m_streams.end()) {
        m_streams[s] = ev->second;
        return true;
    }
    require(it->second.capture == ev->second.capture, "cudaStreamWaitEvent: the stream and the event belong to different captures",
            Error::StreamCaptureIsolation);
    for (GraphNode* t : ev->second.tail)
        if (std::find(it->second.tail.begin(), it->second.tail.end(), t) == it->second.tail.end()) it->second.tail.push_back(t);
    return true;
}

} // namespace gpusim::cudart
