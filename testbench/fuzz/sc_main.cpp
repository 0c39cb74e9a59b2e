// libsystemc needs an sc_main to link against; the harnesses never start a simulation (libFuzzer
// brings its own main).
#include <systemc>

int sc_main(int, char**) { return 0; }
