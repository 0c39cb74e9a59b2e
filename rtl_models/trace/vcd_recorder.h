// Unit signals over time as a VCD file for GTKWave, written by SystemC's own VCD trace file
// (sc_trace), in timing mode (docs/profiling.md#waveforms).
//
// The SMs run ahead of SystemC time by up to a quantum (temporal decoupling) and the memory
// system answers requests whose cycles lie ahead of it, so a unit cannot write a traced value at
// the moment it knows it. Units record each change with the chip cycle it belongs to instead, and
// the recorder's one process replays the changes into the traced values when SystemC time reaches
// their cycle. The replay never moves time on by itself: it waits no later than the next activity
// of the model's own processes, and holds later changes until the model moves (wake()), so runs
// with and without a waveform reach the same times and give the same results.
//
// Only a run that asks for a waveform has a recorder; a unit's VcdSignal is then live when the
// pattern selects it, and without one each call site costs a null-pointer test.
#pragma once

#include <cstdint>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include <systemc>

namespace gpusim {

class VcdRecorder;

// What a run records into a waveform: the file (none when empty) and which signals.
struct VcdOptions {
    std::string path;
    std::string signals = "*";
};

// A unit's handle on one of its signals; does nothing unless the signal is recorded.
class VcdSignal {
public:
    VcdSignal() = default;
    explicit operator bool() const { return m_rec != nullptr; }
    // A level signal takes `value` from chip cycle `cycle` on (one unit, cycles in order).
    void set(uint64_t cycle, uint64_t value) const;
    // ... from the current SystemC time on (a unit that keeps SystemC time itself).
    void set_now(uint64_t value) const;
    // A count signal goes up by one over [from, to): something occupies the unit then (in any order).
    void span(uint64_t from, uint64_t to) const;

private:
    friend class VcdRecorder;

// What a run records into a waveform: the file (none when empty) and which signals.
struct VcdOptions {
    std::string path;
    std::string signals = "*";
};
    VcdRecorder* m_rec = nullptr;             // null: not recorded
    uint32_t m_id = UINT32_MAX;               // the declared signal, recorded or not
};

class VcdRecorder : public sc_core::sc_module {
public:
    // Level: a value one unit sets in cycle order. Count: how many spans cover the cycle. Busy: one
    // bit, whether any span covers it; each flip moves its parent count (busy channels).
    enum class Kind { Level, Count, Busy };

    // Records into `path` (a .vcd file, written from start_tracing on). `patterns` selects the signals: a
    // comma-separated list of globs over names relative to the GPU ("sm_0.issued", "sm_*.l1.*");
    // in the file they sit under `scope` (the GPU's hierarchical name).
    VcdRecorder(const sc_core::sc_module_name& name, const std::string& path, const std::string& patterns,
                const std::string& scope, sc_core::sc_time cycle);
    ~VcdRecorder() override;

    // Declares a signal of `bits` bits (before the simulation starts); the handle is live when a
    // pattern selects the name. A Busy signal may name a Count `parent`.
    VcdSignal declare(const std::string& name, Kind kind, unsigned bits, const VcdSignal& parent = VcdSignal());
    // After every unit declared its signals: checks that each pattern selected one (throws naming
    // the signals there are), opens the file (throws when it cannot) and traces those selected.
    void start_tracing();
    // The model has new work: changes held beyond its last activity may now come due.
    void wake();
    // Lets the simulation run on to the last change recorded (the memory system draining after
    // the last kernel: nothing else should be pending by then), writes it, and closes the file;
    // later changes are dropped. Called between runs of the simulation, not from one of its
    // processes. The destructor only closes the file.
    void finish();
    // The names a pattern may select, in declaration order.
    const std::vector<std::string>& names() const { return m_names; }
    // Bits that hold values up to `max`.
    static unsigned bits_for(uint64_t max) { return max ? unsigned(64 - __builtin_clzll(max)) : 1u; }

private:
    friend class VcdSignal;
    struct Signal {
        Kind kind;
        unsigned bits;
        int parent;             // -1: none
        bool selected;
        int64_t count = 0;      // Count and Busy: spans covering the current cycle
        uint64_t last = 0;      // Level: the last value recorded (a repeat is dropped), and its cycle
        uint64_t last_cycle = 0;
        bool recorded = false;
    };
    struct Change {
        uint64_t cycle;
        uint64_t seq;           // keeps a level's changes of one cycle in order
        uint32_t id;
        int64_t value;          // Level: the value; Count and Busy: +1 or -1
        bool operator>(const Change& o) const { return cycle != o.cycle ? cycle > o.cycle : seq > o.seq; }
    };

    std::string m_path;
    sc_core::sc_time m_cycle;
    std::string m_scope;
    sc_core::sc_trace_file* m_file = nullptr;
    std::vector<std::string> m_patterns;
    std::vector<bool> m_pattern_used;
    std::vector<std::string> m_names;
    std::vector<Signal> m_signals;
    std::unique_ptr<sc_dt::uint64[]> m_values;   // what the trace file samples, one per signal
    std::priority_queue<Change, std::vector<Change>, std::greater<Change>> m_pending;
    uint64_t m_seq = 0;
    uint64_t m_last_cycle = 0;    // the latest change recorded
    bool m_draining = false;      // finish(): the replay moves time on by itself
    sc_core::sc_time m_wake_at;   // when the replay looks next on its own (SC_ZERO_TIME: in this time step)
    sc_core::sc_event m_more;

    void record(uint32_t id, uint64_t cycle, int64_t value);
    std::string signal_kinds() const;
    void apply(const Change& c);
    void replay();
    sc_core::sc_time time_of(uint64_t cycle) const { return m_cycle * double(cycle); }
    uint64_t cycle_now() const { return uint64_t(sc_core::sc_time_stamp() / m_cycle + 0.5); }
};

inline void VcdSignal::set(uint64_t cycle, uint64_t value) const {
    if (m_rec) m_rec->record(m_id, cycle, int64_t(value));
}

inline void VcdSignal::set_now(uint64_t value) const {
    if (m_rec) m_rec->record(m_id, m_rec->cycle_now(), int64_t(value));
}

inline void VcdSignal::span(uint64_t from, uint64_t to) const {
    if (!m_rec || to <= from) return;
    m_rec->record(m_id, from, 1);
    m_rec->record(m_id, to, -1);
}

} // namespace gpusim
