// Work run in a forked child process, for measurements that need a process of their own (SystemC
// elaborates once per process; a copy's first touch needs memory the process never touched).
#pragma once

#include <functional>
#include <string>

namespace gpusim {

// Runs `work` in a child process and returns the bytes it returned, passed back through a pipe,
// once the child has exited; empty where the child sent nothing. The child reports its own errors.
std::string run_in_child(const std::function<std::string()>& work);

} // namespace gpusim
