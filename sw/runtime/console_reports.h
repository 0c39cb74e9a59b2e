// How the command line and the replacement libcudart show the model's SystemC reports: a warning
// (a race, the race detector's limit) as its text on stderr, as they printed it before there were
// reports; an error (a kernel's or a copy's fault) not at all, since the runtime raises it as the
// run's error, with its exit code or CUDA error. Reports of other types get SystemC's own handling.
#pragma once

namespace gpusim {

// Installs the handler for the process (sc_report_handler::set_handler).
void use_console_reports();

} // namespace gpusim
