// Tests of plain logic link SystemC (the SM's units are sc_modules) but never start a simulation;
// libsystemc still needs an sc_main to link against.
#include <systemc>

int sc_main(int, char**) { return 0; }
