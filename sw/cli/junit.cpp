#include "cli/junit.h"

#include <fmt/format.h>

namespace gpusim {

namespace {

// gpusim run's exit codes (main.cpp), as the type of a JUnit error or failure.
const char* outcome_type(int exit) {
    switch (exit) {
    case 1: return "mismatch";
    case 2: return "usage";
    case 3: return "bad input";
    case 4: return "device fault";
    case 5: return "hang";
    case 6: return "crash";
    case 7: return "race";
    default: return "error";
    }
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

struct Counts {
    int tests = 0, failures = 0, errors = 0, skipped = 0;
    double seconds = 0;
};

std::string testcase(const std::string& suite, const std::string& name, double seconds, const std::string& body) {
    return fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.6f}\"{}\n", xml_escape(suite), xml_escape(name), seconds,
                       body.empty() ? "/>" : ">\n" + body + "    </testcase>");
}

std::string element(const char* tag, const std::string& type, const std::string& message, const std::string& text) {
    return fmt::format("      <{} type=\"{}\" message=\"{}\">{}</{}>\n", tag, xml_escape(type), xml_escape(first_line(message)),
                       xml_escape(text), tag);
}

// One manifest: a test case per launch; the error that ended the run goes to the launch it
// stopped, or to a case of its own ("load" before any launch, "run" after the last).
std::string suite(const JunitRecord& r, Counts& total) {
    const std::string name = r.value("suite", "manifest");
    const int exit = r.value("exit", 0);
    const std::string error = r.value("error", "");
    Counts c;
    std::string cases;
    bool error_placed = error.empty();
    for (size_t k = 0; k < r["launches"].size(); ++k) {
        const JunitRecord& l = r["launches"][k];
        const std::string kernel = l.value("kernel", "");
        const double seconds = l.value("seconds", 0.0);
        std::string body;
        if (!l.value("finished", false)) {
            body = element("error", outcome_type(exit), error, error);
            error_placed = true;
            ++c.errors;
        } else if (!l["failures"].empty()) {
            std::string all;
            for (const auto& f : l["failures"]) all += f.get<std::string>() + "\n";
            if (l.contains("known")) {
                body = fmt::format("      <skipped message=\"{}\"/>\n", xml_escape("known difference: " + l["known"].get<std::string>()));
                ++c.skipped;
            } else {
                body = element("failure", "mismatch", l["failures"][0].get<std::string>(), all);
                ++c.failures;
            }
        } else {
            body = fmt::format("      <system-out>{} cycles, {} warp instructions</system-out>\n", l.value("cycles", 0),
                               l.value("warp_instructions", 0));
        }
        cases += testcase(name, fmt::format("launches[{}] {}", k, kernel), seconds, body);
        c.seconds += seconds;
        ++c.tests;
    }
    if (!error_placed) {
        cases += testcase(name, r["launches"].empty() ? "load" : "run", 0, element("error", outcome_type(exit), error, error));
        ++c.errors;
        ++c.tests;
    }
    if (const int hazards = r.value("hazards", 0)) {
        const std::string what = fmt::format("racecheck: {} hazard{} found", hazards, hazards == 1 ? "" : "s");
        cases += testcase(name, "racecheck", 0, element("failure", "race", what, what));
        ++c.failures;
        ++c.tests;
    }
    total.tests += c.tests, total.failures += c.failures, total.errors += c.errors, total.skipped += c.skipped;
    total.seconds += c.seconds;
    std::string props;
    for (const char* key : {"manifest", "config", "mode"})
        props += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", key, xml_escape(r.value(key, "")));
    return fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.6f}\">\n"
                       "    <properties>\n{}    </properties>\n{}  </testsuite>\n",
                       xml_escape(name), c.tests, c.failures, c.errors, c.skipped, c.seconds, props, cases);
}

} // namespace

std::string xml_escape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char ch : text) {
        switch (ch) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default:
            if (static_cast<unsigned char>(ch) >= 0x20 || ch == '\t' || ch == '\n' || ch == '\r') out += ch;
        }
    }
    return out;
}

std::string junit_xml(const std::vector<JunitRecord>& manifests) {
    Counts total;
    std::string suites;
    for (const JunitRecord& r : manifests) suites += suite(r, total);
    return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                       "<testsuites name=\"gpusim\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.6f}\">\n{}"
                       "</testsuites>\n",
                       total.tests, total.failures, total.errors, total.skipped, total.seconds, suites);
}

} // namespace gpusim
