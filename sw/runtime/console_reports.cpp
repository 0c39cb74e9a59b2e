#include "runtime/console_reports.h"

#include <cstdio>

#include "isa/reports.h"

namespace gpusim {

namespace {

void console_handler(const sc_core::sc_report& r, const sc_core::sc_actions& actions) {
    if (!reports::is_model_type(r.get_msg_type())) return sc_core::sc_report_handler::default_handler(r, actions);
    if (r.get_severity() == sc_core::SC_ERROR || !(actions & sc_core::SC_DISPLAY)) return;
    std::fprintf(stderr, "%s\n", r.get_msg());
    std::fflush(stderr);
}

} // namespace

void use_console_reports() { sc_core::sc_report_handler::set_handler(console_handler); }

} // namespace gpusim
