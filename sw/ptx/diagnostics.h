// Errors of the PTX front end and loader: every one names the file, line and column.
#pragma once

#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace gpusim::ptx {

struct SourceLoc {
    int line = 0;
    int col = 0;
};

// Thrown for any problem in a PTX module; what() is "file:line:col: error: message".
class PtxError : public std::runtime_error {
public:
    PtxError(const std::string& file, SourceLoc loc, const std::string& message)
        : std::runtime_error(fmt::format("{}:{}:{}: error: {}", file, loc.line, loc.col, message)),
          m_file(file), m_loc(loc), m_message(message) {}

    const std::string& file() const { return m_file; }
    SourceLoc loc() const { return m_loc; }
    const std::string& message() const { return m_message; }

private:
    std::string m_file;
    SourceLoc m_loc;
    std::string m_message;
};

} // namespace gpusim::ptx
