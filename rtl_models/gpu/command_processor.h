// The command processor: the GPU's hardware work queues ("channels"). The host queues copies,
// launches and semaphore operations on a channel; each channel runs its commands in order, one at
// a time, and different channels run side by side on whatever engines are free: the copy engines
// and the compute engine. This is what makes CUDA streams overlap.
//
// Channel 0 is the legacy default stream: its commands wait for earlier commands of every other
// channel, and theirs wait for its earlier ones, unless a channel is flagged non-blocking.
// A fault (a kernel's, a copy's, a rejected launch) is sticky: queued work is dropped until the
// host clears it.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "dma/dma_engine.h"
#include "gpu/compute_engine.h"
#include "gpu/gpu_config.h"
#include "gpu/registers.h"
#include "trace/trace_recorder.h"
#include "trace/vcd_recorder.h"

namespace gpusim {

struct Command {
    enum class Kind : uint8_t { Copy, Launch, Release, Acquire };
    Kind kind = Kind::Copy;
    uint64_t seq = 0;                // order of submission over all channels
    DmaDescriptor copy;
    LaunchRequest launch;
    uint64_t sem_address = 0;        // Release, Acquire: host address of {payload, time_ns}
    uint64_t payload = 0;
};

class CommandProcessor : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<CommandProcessor> host;   // semaphores in host memory

    using Raise = std::function<void(uint32_t irq_bits)>;
    CommandProcessor(const sc_core::sc_module_name& name, const GpuConfig& cfg, std::vector<DmaEngine*> copy_engines,
                     ComputeEngine& compute, Raise raise);

    uint32_t channels() const { return uint32_t(m_channels.size()); }
    void submit(uint32_t channel, Command c);
    // A higher priority channel's ready command starts before a lower one's (levels above
    // chip.stream_priorities - 1 count as the highest).
    void set_flags(uint32_t channel, bool non_blocking, uint32_t priority);
    // The host changed a semaphore in its memory: channels waiting on an acquire check it again.
    void doorbell() { m_kick.notify(sc_core::SC_ZERO_TIME); }
    uint32_t submitted(uint32_t channel) const { return m_channels[channel].submitted; }
    uint32_t completed(uint32_t channel) const { return m_channels[channel].completed; }
    bool pending() const;
    bool kernel_running() const { return m_compute_owner >= 0; }
    // The timeline (may be null): each copy and launch becomes a span on its channel's track.
    void set_trace(TraceRecorder* t) { m_trace = t; }
    // The waveform: declares "copy_engine_<k>.busy" (the engine runs a copy) and wakes the
    // recorder whenever work arrives, since its held changes may then come due.
    void record_signals(VcdRecorder& vcd);
    bool copy_running() const;

    reg::FaultCode fault_code() const { return m_code; }
    const std::string& fault() const { return m_fault; }
    void clear_fault() { m_code = reg::kFaultNone; m_fault.clear(); }
    // A command the front end could not decode: a sticky fault like a rejected launch.
    void reject(const std::string& why) { set_fault(reg::kFaultLaunchRejected, why); }
    const LaunchResult& last_launch() const { return m_last; }
    // Notified whenever a command completes.
    const sc_core::sc_event& progress_event() const { return m_progress; }
    void report(nlohmann::json& out) const;

private:
    struct Channel {
        std::deque<Command> queue;   // front is running when `running`
        bool running = false;
        bool non_blocking = false;
        uint32_t priority = 0;
        uint32_t submitted = 0, completed = 0;
        sc_core::sc_time started;    // when the running command started (for the timeline)
    };
    const GpuConfig& m_cfg;
    std::vector<DmaEngine*> m_copy;
    ComputeEngine& m_compute;
    Raise m_raise;
    std::vector<Channel> m_channels;
    std::vector<uint32_t> m_order;   // channels by priority, highest first (index order within a level)
    std::vector<int> m_copy_owner;   // channel using each copy engine, or -1
    int m_compute_owner = -1;
    TraceRecorder* m_trace = nullptr;
    VcdRecorder* m_vcd = nullptr;
    std::vector<VcdSignal> m_copy_busy;
    // The timeline: a command's span on its channel's track (and its copy engine's).
    void trace_command(uint32_t channel, int copy_engine);
    uint64_t m_seq = 0;
    reg::FaultCode m_code = reg::kFaultNone;
    std::string m_fault;
    LaunchResult m_last;
    sc_core::sc_event m_kick, m_progress;
    uint64_t m_commands[4] = {};
    sc_core::sc_time m_overlap;      // time with a copy and a kernel running together
    sc_core::sc_time m_last_change;

    void thread();
    void collect();
    bool dispatch();
    bool ordered_ok(uint32_t ch, const Command& c) const;
    bool try_start(uint32_t ch);
    int free_copy_engine(DmaDescriptor::Kind kind) const;
    bool semaphore(uint32_t ch, const Command& c);
    void complete(uint32_t ch);
    void set_fault(reg::FaultCode code, const std::string& why);
    void drop_queued();
    void account_overlap();
};

} // namespace gpusim
