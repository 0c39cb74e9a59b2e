// The model's own messages as SystemC reports, so that a platform that embeds the GPU controls
// them with sc_report_handler (severities, actions, verbosity) as it does its other IP's. Each unit
// has a message type of its own, "gpusim/UNIT"; docs/registers.md lists them.
//
// The SMs may run on worker threads (HostThreads), and sc_report_handler is not thread-safe: a
// report posted there waits until the simulation's thread delivers it (deliver(), after each
// quantum of the SMs and at the end of a launch). Anywhere else it is reported at once. Today's
// reports come from the simulation's thread (faults are raised there, and the race detector keeps
// the SMs on it); the queue keeps a report from a worker safe all the same (unit.isa tests it).
#pragma once

#include <string>

#include <systemc>

namespace gpusim::reports {

// The message types.
inline constexpr const char* kRacecheck = "gpusim/racecheck";   // races, and the shadow's limit (warnings)
inline constexpr const char* kLdst = "gpusim/ldst";             // a kernel's memory fault (error)
inline constexpr const char* kSm = "gpusim/sm";                 // a kernel's trap, assert or other run-time fault, a barrier deadlock (error)
inline constexpr const char* kWatchdog = "gpusim/watchdog";     // a kernel stopped by sim.max_cycles or sim.timeout_seconds (error)
inline constexpr const char* kComputeEngine = "gpusim/compute_engine";   // a launch the chip rejected (error)
inline constexpr const char* kDma = "gpusim/dma";               // a copy engine's fault (error)

// Every type, for a handler that tells the model's reports from others.
bool is_model_type(const char* type);

// Reports `text` now, or, on a worker thread of the SMs, when the simulation's thread next
// delivers; the report names the poster's file and line.
void post(sc_core::sc_severity severity, const char* type, const std::string& text, const char* file = __builtin_FILE(),
          int line = __builtin_LINE());
// The simulation's thread: reports what the workers posted, in the order they posted it.
void deliver();
// A worker thread of the SMs says so, once, before it runs anything.
void mark_worker_thread();

// The model's errors are a program's faults, which the chip reports to its host through its
// registers: SystemC's default action for an error, to throw, would end the simulation instead.
// The GPU sets the actions of its types' errors to display and log (a platform may set others
// after it constructs the GPU).
void set_error_actions();

} // namespace gpusim::reports
