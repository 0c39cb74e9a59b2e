#include "l2/l2_cache.h"

#include "memory/memory_lock.h"
#include "protocol/memory_map.h"

namespace gpusim {

L2Cache::L2Cache(const sc_core::sc_module_name& name, const L2Config& cfg)
    : UnitModule(name), in("in"), out("out"), sysmem("sysmem"), m_clock(cfg.cycle_ns), m_tags(cfg.cache), m_atomic_unit(cfg), m_atomic_latency(cfg.atomic_latency),
      m_slices(cfg.slice_map()),
      m_read_ports(cfg.slice_read_bytes > 0 ? cfg.slices : 0, cfg.slice_read_bytes, cfg.window_cycles, cfg.quantum_cycles),
      m_write_ports(cfg.slice_write_bytes > 0 ? cfg.slices : 0, cfg.slice_write_bytes, cfg.window_cycles, cfg.quantum_cycles),
      m_write_back(cfg.write_back), m_fault_latency(cfg.fault_latency_cycles), m_fault_page(cfg.fault_page_cycles) {
    in.bind(*this);
}

tlm::tlm_sync_enum L2Cache::nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;   // END_RESP of a request completed already
    b_transport(p, delay);
    phase = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
}

void L2Cache::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    if (!m_queue) return serve(p, delay);
    const uint64_t arrived = m_clock.cycle_at(delay);
    serve(p, delay);
    m_queue.span(arrived, m_clock.cycle_at(delay));
}

// Whether a managed page moves to the device now. The L2 runs in SMs' turns, which may overlap
// other SMs asking for regions apart (Sm::get_dmi, which touches pages too).
bool L2Cache::touch_managed(uint64_t addr) {
    if (!memory_map::in_managed_window(addr)) return false;
    std::lock_guard<std::mutex> lock(memory_map_lock());
    return m_managed->device_touch(addr);
}

// The SMs' functional path may have moved the page already (its direct access touches pages): the
// fault it left is taken here, once.
void L2Cache::charge_managed(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    if (!memory_map::in_managed_window(p.get_address())) return;
    const uint64_t bytes = m_managed->page_bytes();
    const uint64_t page = p.get_address() / bytes * bytes;
    ManagedPages::Fault fault = ManagedPages::Fault::None;
    {
        std::lock_guard<std::mutex> lock(memory_map_lock());
        if (!m_managed->device_fault(page, fault)) return;
    }
    const uint64_t at = m_clock.cycle_at(delay);
    if (fault == ManagedPages::Fault::None) {
        auto it = m_page_ready.find(page);
        if (it != m_page_ready.end() && it->second > at) delay += m_clock.span(it->second - at);
        return;
    }
    // The fault unit serves one page after another; a migrating page crosses the link meanwhile.
    const uint64_t start = std::max(at, m_fault_free);
    uint64_t served = start + m_fault_page;
    if (fault == ManagedPages::Fault::Migration) {
        sc_core::sc_time moved = m_clock.delay_of(start);
        tlm::tlm_generic_payload& move = m_migration.prepare(page, uint32_t(bytes), MemoryRequest::Kind::Read);
        sysmem->b_transport(move, moved);
        served = std::max(served, m_clock.cycle_at(moved));
    }
    m_fault_free = served;
    const uint64_t ready = served + m_fault_latency;
    m_page_ready[page] = ready;
    delay += m_clock.span(ready - at);
}

void L2Cache::serve(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    if (request_of(p).kind == MemoryRequest::Kind::Warm) {
        if (m_tags.present() && !memory_map::is_host_address(p.get_address())) m_tags.warm(p.get_address());
        p.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    if (memory_map::is_host_address(p.get_address())) {
        ++m_system;
        sysmem->b_transport(p, delay);
        return;
    }
    if (m_managed && (m_fault_latency || m_fault_page)) {
        charge_managed(p, delay);
    } else if (m_managed && touch_managed(p.get_address())) {
        tlm::tlm_generic_payload& move = m_migration.prepare(p.get_address() / m_managed->page_bytes() * m_managed->page_bytes(),
                                                             uint32_t(m_managed->page_bytes()), MemoryRequest::Kind::Read);
        sysmem->b_transport(move, delay);
    }
    const MemoryRequest request = request_of(p);
    const MemoryRequest::Kind kind = request.kind;
    ++(kind == MemoryRequest::Kind::Read ? m_reads : kind == MemoryRequest::Kind::Write ? m_writes : m_atomics);
    if (kind == MemoryRequest::Kind::Atomic)
        delay += m_clock.span(m_atomic_latency + m_atomic_unit.serve(p.get_address(), request.ops, m_clock.cycle_at(delay),
                                                                     m_clock.cycle_at(sc_core::SC_ZERO_TIME)));
    if (!m_tags.present()) {
        out->b_transport(p, delay);
        return;
    }
    if (kind != MemoryRequest::Kind::Atomic) slice_port(p, kind, delay);
    // A store is posted: the SM waits for the L2's answer only. An atomic is performed here on the
    // line's data, so it needs the line as a load does (and leaves it dirty in the L2).
    if (kind == MemoryRequest::Kind::Write ? !write(p, delay) : !read(p, delay)) return;
    p.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool L2Cache::read(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    const uint64_t now = m_clock.cycle_at(delay);
    const uint64_t line = p.get_address() / m_tags.line_bytes();
    const bool hit = lookup(p.get_address(), now);
    if (m_write_back && request_of(p).kind == MemoryRequest::Kind::Atomic) m_tags.mark_dirty();
    if (hit) {
        delay += m_clock.span(m_tags.hit_latency(now));
        return true;
    }
    sc_core::sc_time fill = delay + m_clock.span(m_tags.latency());
    sc_core::sc_time posted = fill;   // the fill does not wait for the victim's write-back
    if (!write_back(p, posted)) return false;
    m_dram.prepare(line * m_tags.line_bytes(), m_tags.line_bytes(), MemoryRequest::Kind::Read);
    if (!to_dram(p, fill)) return false;
    m_tags.filling(m_clock.cycle_at(fill));
    delay = fill;
    return true;
}

bool L2Cache::write(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    // Write-allocate without a fill: a partial line is merged when it is evicted.
    lookup(p.get_address(), m_clock.cycle_at(delay));
    delay += m_clock.span(m_tags.latency());
    if (m_write_back) {
        m_tags.mark_dirty();
        return write_back(p, delay);
    }
    // The bytes reach device memory eventually; their bandwidth is taken now (posted).
    sc_core::sc_time posted = delay;
    m_dram.prepare(p.get_address(), p.get_data_length(), MemoryRequest::Kind::Write);
    return to_dram(p, posted);
}

bool L2Cache::write_back(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    const uint64_t victim = m_tags.evicted_dirty();
    if (victim == UINT64_MAX) return true;
    ++m_write_backs;
    m_dram.prepare(victim, m_tags.line_bytes(), MemoryRequest::Kind::Write);
    return to_dram(p, delay);
}

void L2Cache::slice_port(const tlm::tlm_generic_payload& p, MemoryRequest::Kind kind, sc_core::sc_time& delay) {
    BandwidthWindows& ports = kind == MemoryRequest::Kind::Write ? m_write_ports : m_read_ports;
    if (ports.bytes_per_cycle() <= 0) return;
    const uint32_t slice = m_slices.of(p.get_address());
    delay += m_clock.span(ports.queue(slice, p.get_data_length(), m_clock.cycle_at(delay)));
}

bool L2Cache::lookup(uint64_t address, uint64_t cycle) {
    const bool hit = m_tags.access(address);
    if (m_trace) m_trace->l2_lookup(cycle, hit);
    return hit;
}

bool L2Cache::to_dram(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    tlm::tlm_generic_payload& request = m_dram.payload();
    out->b_transport(request, delay);
    if (request.is_response_ok()) return true;
    p.set_response_status(request.get_response_status());
    return false;
}

void L2Cache::report(nlohmann::json& out) const {
    stat(out, "reads", double(m_reads), "transactions", "read transactions from the SMs (line fills of their caches included)");
    stat(out, "writes", double(m_writes), "transactions", "write transactions");
    stat(out, "atomics", double(m_atomics), "transactions", "atomic requests (one per address of a warp's atomic)");
    stat(out, "atomic_operations", double(m_atomic_unit.operations()), "operations", "atomic operations (one per lane)");
    stat(out, "atomic_wait_cycles", double(m_atomic_unit.wait_cycles()), "cycles", "cycles atomics waited for earlier operations on their address, summed");
    stat(out, "hits", double(m_tags.hits()), "lookups", "L2 hits");
    stat(out, "misses", double(m_tags.misses()), "lookups", "L2 misses");
    stat(out, "system_requests", double(m_system), "transactions", "requests for mapped host memory, sent over the PCIe link uncached");
    // Reported where the config models them, so that the older configs' statistics stay as they were.
    if (m_write_back) stat(out, "write_backs", double(m_write_backs), "lines", "dirty lines written back to device memory when evicted");
    if (m_read_ports.bytes_per_cycle() > 0)
        stat(out, "slice_read_wait_cycles", double(m_read_ports.queue_cycles()), "cycles", "cycles requests waited for a slice's read port, summed");
    if (m_write_ports.bytes_per_cycle() > 0)
        stat(out, "slice_write_wait_cycles", double(m_write_ports.queue_cycles()), "cycles", "cycles stores waited for a slice's write port, summed");
    stat(out, "hits_under_miss", double(m_tags.hits_under_miss()), "lookups", "hits on a line still being filled, which waited for the fill");
}

} // namespace gpusim
