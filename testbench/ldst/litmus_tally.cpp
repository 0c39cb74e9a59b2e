// Counts the outcomes of litmus runs (regress/litmus): each output file holds, per group of
// blocks, 8 words: the SM of each role's block (words 0-3) and the results (words 4-7). Only
// groups whose blocks ran on different SMs count. Prints the histogram; fails when a forbidden
// outcome appears, an expected one never does, or too few groups ran apart.
//
//   litmus_tally --title T --roles R --results K [--forbid a,b,..]... [--expect a,b,..]... FILE...
//   litmus_tally --title T --sum VALUE (--expect-wrong | --forbid-wrong) FILE...
// The second form reads one word per file, a reduction's result, against its right value.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Outcome = std::vector<int32_t>;

Outcome parse(const std::string& s) {
    Outcome o;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, ',');) o.push_back(int32_t(std::stol(item)));
    return o;
}

std::string show(const Outcome& o) {
    std::string s;
    for (size_t i = 0; i < o.size(); ++i) s += (i ? "," : "") + std::to_string(o[i]);
    return s;
}

std::vector<int32_t> words(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read " + path);
    std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::vector<int32_t> w(bytes.size() / 4);
    std::memcpy(w.data(), bytes.data(), w.size() * 4);
    return w;
}

int usage() {
    std::fprintf(stderr, "usage: litmus_tally --title T --roles R --results K [--forbid O]... [--expect O]... FILE...\n"
                         "       litmus_tally --title T --sum VALUE (--expect-wrong | --forbid-wrong) FILE...\n");
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    std::string title;
    int roles = 0, results = 0;
    bool reduction = false, expect_wrong = false, forbid_wrong = false;
    int64_t sum = 0;
    std::set<Outcome> forbid, expect;
    std::vector<std::string> files;
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            auto next = [&]() -> std::string {
                if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
                return argv[++i];
            };
            if (a == "--title") title = next();
            else if (a == "--roles") roles = std::stoi(next());
            else if (a == "--results") results = std::stoi(next());
            else if (a == "--forbid") forbid.insert(parse(next()));
            else if (a == "--expect") expect.insert(parse(next()));
            else if (a == "--sum") reduction = true, sum = std::stoll(next());
            else if (a == "--expect-wrong") expect_wrong = true;
            else if (a == "--forbid-wrong") forbid_wrong = true;
            else if (a.rfind("--", 0) == 0) return usage();
            else files.push_back(a);
        }
        if (files.empty() || (!reduction && (roles < 1 || roles > 4 || results < 1 || results > 4))) return usage();

        if (reduction) {
            uint64_t right = 0, wrong = 0;
            for (const auto& f : files) (words(f).at(0) == sum ? right : wrong) += 1;
            std::printf("%s: %llu runs, right sum %lld in %llu, wrong in %llu\n", title.c_str(),
                        (unsigned long long)(right + wrong), (long long)sum, (unsigned long long)right, (unsigned long long)wrong);
            if (expect_wrong && wrong == 0) { std::printf("FAIL: no run gave a wrong sum\n"); return 1; }
            if (forbid_wrong && wrong > 0) { std::printf("FAIL: a run gave a wrong sum\n"); return 1; }
            return 0;
        }

        std::map<Outcome, uint64_t> histogram;
        uint64_t apart = 0, together = 0;
        for (const auto& f : files) {
            const std::vector<int32_t> w = words(f);
            for (size_t g = 0; g + 8 <= w.size(); g += 8) {
                std::set<int32_t> sms(w.begin() + long(g), w.begin() + long(g) + roles);
                if (int(sms.size()) != roles) { ++together; continue; }
                ++apart;
                ++histogram[Outcome(w.begin() + long(g) + 4, w.begin() + long(g) + 4 + results)];
            }
        }
        std::printf("%s: %llu groups on different SMs (%llu on a shared SM not counted)\n", title.c_str(),
                    (unsigned long long)apart, (unsigned long long)together);
        bool ok = apart >= together && apart > 0;
        for (const auto& [o, n] : histogram)
            std::printf("  %-12s %8llu%s%s\n", show(o).c_str(), (unsigned long long)n, forbid.count(o) ? "  FORBIDDEN" : "",
                        expect.count(o) ? "  (relaxed)" : "");
        for (const auto& o : forbid)
            if (histogram.count(o)) ok = false;
        for (const auto& o : expect)
            if (!histogram.count(o)) {
                std::printf("FAIL: outcome %s never appeared\n", show(o).c_str());
                ok = false;
            }
        if (!ok) std::printf("FAIL\n");
        return ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "litmus_tally: %s\n", e.what());
        return 2;
    }
}
