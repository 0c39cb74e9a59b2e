// Streams and events.
#include <algorithm>

#include "cudart/api.h"

using namespace gpusim;
using namespace gpusim::cudart;

namespace {
constexpr unsigned kStreamNonBlocking = 0x1;

// A query answers cudaSuccess when done and cudaErrorNotReady otherwise, which is not an error
// the call records.
// Synchronizing with a capturing stream is not allowed: it invalidates the capture.
void not_capturing(Context& c, cudaStream_t s) {
    c.check_not_capturing(s);
    if (Captures::Capture* cap = c.captures.of(c.stream(s))) {
        c.captures.invalidate(*cap);
        throw RuntimeError("synchronizing with a stream that is capturing", Error::StreamCaptureUnsupported);
    }
}

template <class F>
cudaError_t query(F&& done, const char* api = __builtin_FUNCTION()) {
    bool finished = false;
    const cudaError_t e = guard([&](Context& c) { finished = done(c); }, api);
    return e ? e : finished ? 0 : cudaError_t(Error::NotReady);
}
} // namespace

CUDART_API cudaError_t cudaStreamCreate(cudaStream_t* s) {
    return guard([&](Context& c) {
        require(s, "cudaStreamCreate: null pointer");
        *s = Context::stream_handle(c.rt().create_stream(false));
    });
}

CUDART_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned int flags) {
    return guard([&](Context& c) {
        require(s, "cudaStreamCreateWithFlags: null pointer");
        *s = Context::stream_handle(c.rt().create_stream(flags & kStreamNonBlocking));
    });
}

// Stream priorities are the command processor's channel priorities (chip.stream_priorities
// levels). CUDA numbers them 0 (least) down to -(levels - 1) (greatest); a number outside the
// range is clamped to it, as CUDA does.
CUDART_API cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
    return guard([&](Context& c) {
        const uint32_t levels = std::max(c.rt().config().stream_priorities, 1u);
        if (least) *least = 0;
        if (greatest) *greatest = -int(levels - 1);
    });
}

CUDART_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t* s, unsigned int flags, int priority) {
    return guard([&](Context& c) {
        require(s, "cudaStreamCreateWithPriority: null pointer");
        *s = Context::stream_handle(c.rt().create_stream(flags & kStreamNonBlocking, uint32_t(std::max(-priority, 0))));
    });
}

CUDART_API cudaError_t cudaStreamGetPriority(cudaStream_t s, int* priority) {
    return guard([&](Context& c) {
        require(priority, "cudaStreamGetPriority: null pointer");
        *priority = -int(c.rt().stream_priority(c.stream(s)));
    });
}

CUDART_API cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned int* flags) {
    return guard([&](Context& c) {
        require(flags, "cudaStreamGetFlags: null pointer");
        *flags = c.rt().stream_non_blocking(c.stream(s)) ? kStreamNonBlocking : 0;
    });
}

CUDART_API cudaError_t cudaStreamGetDevice(cudaStream_t s, int* device) {
    return guard([&](Context& c) {
        require(device, "cudaStreamGetDevice: null pointer");
        c.rt().stream_non_blocking(c.stream(s));
        *device = 0;
    });
}

CUDART_API cudaError_t cudaStreamDestroy(cudaStream_t s) {
    return guard([&](Context& c) { c.rt().destroy_stream(c.stream(s)); });
}

CUDART_API cudaError_t cudaStreamQuery(cudaStream_t s) {
    return query([&](Context& c) {
        not_capturing(c, s);
        return c.rt().stream_done(c.stream(s));
    });
}

CUDART_API cudaError_t cudaStreamSynchronize(cudaStream_t s) {
    return guard([&](Context& c) {
        not_capturing(c, s);
        c.rt().synchronize(c.stream(s));
    });
}

CUDART_API cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int) {
    return guard([&](Context& c) {
        c.check_not_capturing(s);
        if (c.captures.wait(c.stream(s), c.event(e))) return;
        c.rt().stream_wait_event(c.stream(s), c.event(e));
    });
}

// Host functions run on the library's host thread when the stream reaches them; the stream waits
// for them. A callback also runs when an earlier fault dropped the stream's work, and is told the
// error; a host function launched with cudaLaunchHostFunc then does not run (as CUDA documents).
CUDART_API cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t callback, void* data, unsigned int flags) {
    return guard([&](Context& c) {
        require(callback, "cudaStreamAddCallback: null callback");
        require(flags == 0, "cudaStreamAddCallback: flags must be 0");
        require(!c.captures.of(c.stream(s)), "cudaStreamAddCallback cannot be captured; use cudaLaunchHostFunc",
                Error::StreamCaptureUnsupported);
        c.host_thread();
        c.rt().launch_host_function(c.stream(s), [=](Error status) { callback(s, cudaError_t(status), data); }, true);
        c.host_thread().nudge();
    });
}

CUDART_API cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void* data) {
    return guard([&](Context& c) {
        require(fn, "cudaLaunchHostFunc: null function");
        if (GraphNode* n = c.capture_node(s, cudaGraphNodeTypeHost)) {
            n->host = cudaHostNodeParams{fn, data};
            return;
        }
        c.host_thread();
        c.rt().launch_host_function(c.stream(s), [=](Error) { fn(data); }, false);
        c.host_thread().nudge();
    });
}

CUDART_API cudaError_t cudaEventCreate(cudaEvent_t* e) {
    return guard([&](Context& c) {
        require(e, "cudaEventCreate: null pointer");
        *e = Context::event_handle(c.rt().create_event());
    });
}

CUDART_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned int) {
    return guard([&](Context& c) {
        require(e, "cudaEventCreateWithFlags: null pointer");
        *e = Context::event_handle(c.rt().create_event());
    });
}

CUDART_API cudaError_t cudaEventDestroy(cudaEvent_t e) {
    return guard([&](Context& c) { c.rt().destroy_event(c.event(e)); });
}

CUDART_API cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
    return guard([&](Context& c) {
        c.check_not_capturing(s);
        if (c.captures.of(c.stream(s))) return c.captures.record(c.event(e), c.stream(s));
        c.rt().record_event(c.event(e), c.stream(s));
    });
}

// cudaEventRecordExternal (1) matters to graph capture only; the record is the same.
CUDART_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned int flags) {
    if (flags > 1) return guard([](Context&) { throw RuntimeError("cudaEventRecordWithFlags: unknown flags"); });
    return cudaEventRecord(e, s);
}

CUDART_API cudaError_t cudaStreamGetId(cudaStream_t s, unsigned long long* id) {
    return guard([&](Context& c) {
        require(id, "cudaStreamGetId: null pointer");
        c.rt().stream_non_blocking(c.stream(s));
        *id = c.stream(s);
    });
}

CUDART_API cudaError_t cudaEventQuery(cudaEvent_t e) {
    return query([&](Context& c) { return c.rt().event_done(c.event(e)); });
}

CUDART_API cudaError_t cudaEventSynchronize(cudaEvent_t e) {
    return guard([&](Context& c) { c.rt().synchronize_event(c.event(e)); });
}

// Simulated time between the two events' completions, in milliseconds.
CUDART_API cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    return guard([&](Context& c) {
        require(ms, "cudaEventElapsedTime: null pointer");
        Runtime& rt = c.rt();
        *ms = float((rt.event_time_ns(c.event(end)) - rt.event_time_ns(c.event(start))) / 1e6);
    });
}
