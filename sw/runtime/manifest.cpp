#include "runtime/manifest.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "runtime/fnv1a.h"
#include "runtime/generators.h"
#include "runtime/manifest_parse.h"
#include "runtime/texture_spec.h"

namespace gpusim {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using namespace manifest_parse;

Dim3 dims(const std::string& path, const std::string& where, const json& j) {
    if (!j.is_array() || j.empty() || j.size() > 3) bad(path, where, "expected an array of 1 to 3 positive integers");
    uint32_t v[3] = {1, 1, 1};
    for (size_t k = 0; k < j.size(); ++k) {
        if (!j[k].is_number_unsigned() || j[k].get<uint64_t>() == 0 || j[k].get<uint64_t>() > UINT32_MAX)
            bad(path, where, "expected an array of 1 to 3 positive integers");
        v[k] = j[k].get<uint32_t>();
    }
    return {v[0], v[1], v[2]};
}

Tolerance tolerance(const std::string& path, const std::string& where, const json& j) {
    only_keys(path, where, j, {"type", "ulp", "abs", "rel"});
    Tolerance t;
    std::string type = field(path, where, j, "type").is_string() ? j["type"].get<std::string>() : "";
    if (type == "f32") t.type = Tolerance::Type::F32;
    else if (type == "f64") t.type = Tolerance::Type::F64;
    else bad(path, where + ".type", "expected \"f32\" or \"f64\"");
    bool any = false;
    for (auto [key, slot] : {std::pair{"ulp", &t.ulp}, std::pair{"abs", &t.abs}, std::pair{"rel", &t.rel}}) {
        if (!j.contains(key)) continue;
        if (!j[key].is_number() || j[key].get<double>() < 0) bad(path, where + "." + key, "expected a non-negative number");
        *slot = j[key].get<double>();
        any = true;
    }
    if (!any) bad(path, where, "needs at least one bound: ulp, abs or rel");
    return t;
}

std::vector<FileRef> file_refs(const Manifest& m, const std::string& where, const json& launch, const char* key) {
    std::vector<FileRef> out;
    if (!launch.contains(key)) return out;
    const json& list = launch[key];
    if (!list.is_array()) bad(m.path, where, fmt::format("\"{}\" must be an array", key));
    for (size_t k = 0; k < list.size(); ++k) {
        std::string w = fmt::format("{}.{}[{}]", where, key, k);
        bool expect = std::string(key) == "expect";
        if (expect) only_keys(m.path, w, list[k], {"buffer", "file", "tolerance"});
        else only_keys(m.path, w, list[k], {"buffer", "file"});
        FileRef f{field(m.path, w, list[k], "buffer").get<std::string>(),
                  (fs::path(m.dir) / field(m.path, w, list[k], "file").get<std::string>()).string(), {}};
        if (expect && list[k].contains("tolerance")) f.tolerance = tolerance(m.path, w + ".tolerance", list[k]["tolerance"]);
        bool known = std::any_of(m.buffers.begin(), m.buffers.end(), [&](const BufferSpec& b) { return b.name == f.buffer; });
        if (!known) bad(m.path, w, fmt::format("unknown buffer \"{}\"", f.buffer));
        out.push_back(f);
    }
    return out;
}

ArgSpec parse_arg(const Manifest& m, const std::string& where, const json& a) {
    if (!a.is_object() || a.size() != 1)
        bad(m.path, where, "an argument is {\"buffer\": NAME}, {\"texture\": NAME} or one scalar like {\"u32\": 5}");
    auto it = a.begin();
    ArgSpec s;
    if (it.key() == "texture") {
        s.texture = it.value().get<std::string>();
        bool known = std::any_of(m.textures.begin(), m.textures.end(), [&](const TextureSpec& t) { return t.name == s.texture; });
        if (!known) bad(m.path, where, fmt::format("unknown texture \"{}\"", s.texture));
        return s;
    }
    if (it.key() == "buffer") {
        s.buffer = it.value().get<std::string>();
        bool known = std::any_of(m.buffers.begin(), m.buffers.end(), [&](const BufferSpec& b) { return b.name == s.buffer; });
        if (!known) bad(m.path, where, fmt::format("unknown buffer \"{}\"", s.buffer));
        return s;
    }
    static const char* const types[] = {"u32", "s32", "u64", "s64", "f32", "f64"};
    if (std::none_of(std::begin(types), std::end(types), [&](const char* t) { return it.key() == t; }))
        bad(m.path, where, fmt::format("unknown argument kind \"{}\" (expected buffer, texture, u32, s32, u64, s64, f32 or f64)", it.key()));
    if (!it.value().is_number()) bad(m.path, where, fmt::format("\"{}\" needs a number", it.key()));
    s.type = it.key();
    s.value = it.value();
    return s;
}

KernelArg scalar(const Manifest& m, const std::string& where, const ArgSpec& a) {
    const json& v = a.value;
    auto integral = [&](double lo, double hi) {
        if (!v.is_number_integer() || v.get<double>() < lo || v.get<double>() > hi)
            bad(m.path, where, fmt::format("{} value {} is out of range", a.type, v.dump()));
    };
    if (a.type == "u32") { integral(0, 4294967295.0); return KernelArg::of<uint32_t>(v.get<uint32_t>(), "u32"); }
    if (a.type == "s32") { integral(-2147483648.0, 2147483647.0); return KernelArg::of<int32_t>(v.get<int32_t>(), "s32"); }
    if (a.type == "u64") {
        if (!v.is_number_unsigned()) bad(m.path, where, fmt::format("u64 value {} is out of range", v.dump()));
        return KernelArg::of<uint64_t>(v.get<uint64_t>(), "u64");
    }
    if (a.type == "s64") {
        if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX)))
            bad(m.path, where, fmt::format("s64 value {} is out of range", v.dump()));
        return KernelArg::of<int64_t>(v.get<int64_t>(), "s64");
    }
    if (a.type == "f32") return KernelArg::of<float>(v.get<float>(), "f32");
    return KernelArg::of<double>(v.get<double>(), "f64");
}

// The digest of a device buffer, read a slice at a time past the memory system.
std::string digest(Runtime& rt, DevicePtr p, uint64_t bytes) {
    constexpr uint64_t kSlice = uint64_t(1) << 20;
    std::vector<uint8_t> slice(std::min(bytes, kSlice));
    uint64_t h = kFnv1aBasis;
    for (uint64_t done = 0; done < bytes; done += slice.size()) {
        const uint64_t n = std::min<uint64_t>(slice.size(), bytes - done);
        rt.peek(slice.data(), p + done, n);
        h = fnv1a(slice.data(), n, h);
    }
    return fmt::format("{:016x}", h);
}

// Read whole where the file has a size; a pipe (`<(...)`, /dev/stdin) is read as it comes.
HostBytes read_file(const std::string& manifest, const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw std::runtime_error(fmt::format("{}: error: cannot open \"{}\"", manifest, path));
    const std::streamoff size = in.tellg();
    HostBytes bytes;
    if (size >= 0) {
        bytes.resize(size_t(size));
        in.seekg(0);
        in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size()));
    } else {
        in.clear();
        char chunk[65536];
        while (in.read(chunk, sizeof chunk) || in.gcount() > 0) bytes.insert(bytes.end(), chunk, chunk + in.gcount());
    }
    if (in.bad() || (size >= 0 && !in)) throw std::runtime_error(fmt::format("{}: error: cannot read \"{}\"", manifest, path));
    return bytes;
}

} // namespace

Manifest load_manifest(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(fmt::format("{}: error: cannot open manifest", path));
    std::ostringstream text;
    text << in.rdbuf();
    return parse_manifest(path, text.str());
}

Manifest parse_manifest(const std::string& path, std::string_view text) {
    Manifest m;
    m.path = path;
    m.dir = fs::path(path).parent_path().string();
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::exception& e) {   // a syntax error, or a number too large for a double
        throw std::runtime_error(fmt::format("{}: error: invalid JSON: {}", path, e.what()));
    }
    try {
        only_keys(path, "manifest", doc, {"module", "config", "buffers", "textures", "launches", "description"});
        m.module = (fs::path(m.dir) / field(path, "manifest", doc, "module").get<std::string>()).string();
        if (doc.contains("config")) {
            m.config = doc["config"].get<std::string>();
            // A config file (not a bundled name) is relative to the manifest like every other path.
            if (m.config.find('/') != std::string::npos || m.config.find(".json") != std::string::npos)
                m.config = (fs::path(m.dir) / m.config).string();
        }
        const json& bufs = field(path, "manifest", doc, "buffers");
        if (!bufs.is_array()) bad(path, "buffers", "expected an array");
        for (size_t k = 0; k < bufs.size(); ++k) {
            std::string w = fmt::format("buffers[{}]", k);
            only_keys(path, w, bufs[k], {"name", "bytes", "init"});
            BufferSpec b;
            b.name = field(path, w, bufs[k], "name").get<std::string>();
            const json& bytes = field(path, w, bufs[k], "bytes");
            if (!bytes.is_number_unsigned() || bytes.get<uint64_t>() == 0) bad(path, w, "\"bytes\" must be a positive integer");
            b.bytes = bytes.get<uint64_t>();
            if (bufs[k].contains("init")) b.init = bufs[k]["init"];
            for (const auto& o : m.buffers)
                if (o.name == b.name) bad(path, w, fmt::format("buffer \"{}\" is declared twice", b.name));
            m.buffers.push_back(b);
        }
        if (doc.contains("textures")) {
            const json& texs = doc["textures"];
            if (!texs.is_array()) bad(path, "textures", "expected an array");
            std::map<std::string, uint64_t> sizes;
            for (const auto& b : m.buffers) sizes[b.name] = b.bytes;
            for (size_t k = 0; k < texs.size(); ++k) {
                TextureSpec t = parse_texture(path, fmt::format("textures[{}]", k), texs[k], sizes);
                for (const auto& o : m.textures)
                    if (o.name == t.name) bad(path, fmt::format("textures[{}]", k), fmt::format("texture \"{}\" is declared twice", t.name));
                m.textures.push_back(t);
            }
        }
        const json& launches = field(path, "manifest", doc, "launches");
        if (!launches.is_array() || launches.empty()) bad(path, "launches", "expected a non-empty array");
        for (size_t k = 0; k < launches.size(); ++k) {
            std::string w = fmt::format("launches[{}]", k);
            const json& l = launches[k];
            only_keys(path, w, l, {"kernel", "grid", "block", "shared_bytes", "args", "outputs", "expect"});
            LaunchSpec s;
            s.kernel = field(path, w, l, "kernel").get<std::string>();
            s.grid = dims(path, w + ".grid", field(path, w, l, "grid"));
            s.block = dims(path, w + ".block", field(path, w, l, "block"));
            if (l.contains("shared_bytes")) {
                const json& sb = l["shared_bytes"];
                if (!sb.is_number_unsigned() || sb.get<uint64_t>() > UINT32_MAX)
                    bad(path, w, "\"shared_bytes\" must be a byte count that fits 32 bits");
                s.shared_bytes = sb.get<uint32_t>();
            }
            const json& args = field(path, w, l, "args");
            if (!args.is_array()) bad(path, w + ".args", "expected an array");
            for (size_t a = 0; a < args.size(); ++a) s.args.push_back(parse_arg(m, fmt::format("{}.args[{}]", w, a), args[a]));
            s.outputs = file_refs(m, w, l, "outputs");
            s.expect = file_refs(m, w, l, "expect");
            m.launches.push_back(std::move(s));
        }
    } catch (const json::exception& e) {
        throw std::runtime_error(fmt::format("{}: error: wrong value type: {}", path, e.what()));
    }
    return m;
}

std::vector<std::string> input_files(const Manifest& m) {
    std::vector<std::string> files{m.module};
    for (const BufferSpec& b : m.buffers) {
        if (!b.init.is_object() || !b.init.contains("file")) continue;
        const json& f = b.init["file"];
        if (f.is_string()) files.push_back((fs::path(m.dir) / f.get<std::string>()).string());
        else if (f.is_object() && f.contains("file") && f["file"].is_string())
            files.push_back((fs::path(m.dir) / f["file"].get<std::string>()).string());
    }
    for (const LaunchSpec& l : m.launches)
        for (const FileRef& e : l.expect) files.push_back(e.file);
    return files;
}

HostBytes initial_contents(const Manifest& m, const BufferSpec& b) {
    HostBytes data(b.bytes);   // zeros
    const json& init = b.init;
    std::string where = fmt::format("buffer \"{}\" init", b.name);
    if (init.is_null()) return data;
    // {"file": "in.bin", "offset": 128} is the flat spelling of {"file": {"file": ..., "offset": ...}}.
    const bool flat_file = init.is_object() && init.size() == 2 && init.contains("file") && init["file"].is_string() &&
                           init.contains("offset");
    if (!init.is_object() || (init.size() != 1 && !flat_file)) bad(m.path, where, "expected one of fill, file, random, iota");
    try {
        if (init.contains("fill")) {
            const json& f = init["fill"];
            if (!f.is_number_unsigned() || f.get<uint64_t>() > 255) bad(m.path, where, "\"fill\" must be a byte value 0 to 255");
            std::fill(data.begin(), data.end(), f.get<uint8_t>());
        } else if (init.contains("file")) {
            const json& f = init["file"];
            const std::string file = f.is_string() ? f.get<std::string>() : field(m.path, where, f, "file").get<std::string>();
            const json* at = f.is_object() && f.contains("offset") ? &f["offset"] : flat_file ? &init["offset"] : nullptr;
            if (at && !at->is_number_unsigned()) bad(m.path, where, "\"offset\" must be a byte count");
            const uint64_t offset = at ? at->get<uint64_t>() : 0;
            const HostBytes bytes = read_file(m.path, (fs::path(m.dir) / file).string());
            if (offset > bytes.size() || bytes.size() - offset < b.bytes)
                bad(m.path, where, fmt::format("\"{}\" holds {} bytes from offset {}, the buffer needs {}", file,
                                               bytes.size() > offset ? bytes.size() - offset : 0, offset, b.bytes));
            std::copy(bytes.begin() + long(offset), bytes.begin() + long(offset + b.bytes), data.begin());
        } else if (init.contains("random")) {
            const json& r = init["random"];
            only_keys(m.path, where, r, {"type", "seed", "min", "max"});
            gen::fill_random(data, gen::parse_elem_type(field(m.path, where, r, "type").get<std::string>()),
                             field(m.path, where, r, "seed").get<uint64_t>(), field(m.path, where, r, "min").get<double>(),
                             field(m.path, where, r, "max").get<double>());
        } else if (init.contains("iota")) {
            const json& r = init["iota"];
            only_keys(m.path, where, r, {"type", "start", "step"});
            gen::fill_iota(data, gen::parse_elem_type(field(m.path, where, r, "type").get<std::string>()),
                           field(m.path, where, r, "start").get<double>(), field(m.path, where, r, "step").get<double>());
        } else {
            bad(m.path, where, fmt::format("unknown init kind \"{}\"", init.begin().key()));
        }
    } catch (const json::exception& e) {
        bad(m.path, where, e.what());
    } catch (const std::invalid_argument& e) {
        bad(m.path, where, e.what());
    }
    return data;
}

// Writes `data` to dir/name and returns the path.
std::string dump_buffer(const std::string& dir, const std::string& name, const HostBytes& data) {
    fs::create_directories(dir);
    std::string path = (fs::path(dir) / name).string();
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
    if (!f) throw std::runtime_error(fmt::format("error: cannot write \"{}\"", path));
    return path;
}

ManifestOutcome run_manifest(Runtime& rt, const Manifest& m, const std::string& dump_dir) {
    ManifestOutcome out;
    run_manifest(rt, m, out, dump_dir);
    return out;
}

void run_manifest(Runtime& rt, const Manifest& m, ManifestOutcome& out, const std::string& dump_dir, bool digests) {
    const ModuleHandle& mod = rt.load_module(m.module);
    std::map<std::string, DevicePtr> dev;
    std::map<std::string, uint64_t> sizes;
    for (const auto& b : m.buffers) {
        Runtime::HostSpan span(rt, "upload " + b.name);
        // Allocated first: a buffer larger than the device's memory is refused before its
        // contents are built in host memory.
        try {
            dev[b.name] = rt.malloc(b.bytes);
        } catch (const RuntimeError& e) {
            throw RuntimeError(fmt::format("{}: error: buffer \"{}\": {}", m.path, b.name, e.what()), e.code());
        }
        rt.name_allocation(dev[b.name], b.name);
        sizes[b.name] = b.bytes;
        const HostBytes init = initial_contents(m, b);
        rt.memcpy_to_device(dev[b.name], init.data(), init.size());
    }
    std::map<std::string, DevicePtr> handles;
    for (const auto& t : m.textures) handles[t.name] = create_texture(rt, t, dev[t.buffer], mod, m.path);
    for (size_t k = 0; k < m.launches.size(); ++k) {
        const LaunchSpec& l = m.launches[k];
        std::string where = fmt::format("launches[{}]", k);
        auto it = mod.kernels.find(l.kernel);
        if (it == mod.kernels.end()) {
            std::string names;
            for (auto& [n, _] : mod.kernels) names += (names.empty() ? "" : ", ") + n;
            bad(m.path, where, fmt::format("module has no kernel \"{}\" (it has: {})", l.kernel, names));
        }
        std::vector<KernelArg> args;
        for (size_t a = 0; a < l.args.size(); ++a) {
            const ArgSpec& s = l.args[a];
            if (!s.texture.empty()) args.push_back(KernelArg::of<uint64_t>(handles[s.texture], "texture \"" + s.texture + "\""));
            else if (!s.buffer.empty()) args.push_back(KernelArg::of<uint64_t>(dev[s.buffer], "buffer \"" + s.buffer + "\""));
            else args.push_back(scalar(m, fmt::format("{}.args[{}]", where, a), s));
        }
        LaunchStats st;
        out.per_launch.push_back(LaunchOutcome{l.kernel, false, {}, {}});
        Runtime::HostSpan span(rt, fmt::format("{} {}", where, l.kernel));
        try {
            st = rt.launch(it->second, l.grid, l.block, l.shared_bytes, args);
        } catch (const RuntimeError& e) {
            throw RuntimeError(fmt::format("{}: error: {} ({}): {}", m.path, where, l.kernel, e.what()), e.code());
        }
        out.totals.cycles += st.cycles;
        out.totals.warp_instructions += st.warp_instructions;
        out.totals.thread_instructions += st.thread_instructions;
        out.totals.host_seconds += st.host_seconds;
        ++out.launches;
        out.per_launch.back().finished = true;
        out.per_launch.back().stats = st;
        auto fetch = [&](const std::string& name) {
            HostBytes data(sizes[name]);
            rt.memcpy_to_host(data.data(), dev[name], data.size());
            return data;
        };
        for (const auto& o : l.outputs) {
            const HostBytes data = fetch(o.buffer);
            const fs::path folder = fs::path(o.file).parent_path();  // empty for a manifest in the working folder
            if (!folder.empty()) fs::create_directories(folder);
            std::ofstream f(o.file, std::ios::binary);
            f.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
            if (!f) throw std::runtime_error(fmt::format("{}: error: cannot write \"{}\"", m.path, o.file));
        }
        for (const auto& e : l.expect) {
            const HostBytes got = fetch(e.buffer);
            std::string diff = compare_buffers(read_file(m.path, e.file), got, e.tolerance);
            if (!diff.empty()) {
                if (!dump_dir.empty()) diff += "; written to " + dump_buffer(dump_dir, l.kernel + "." + e.buffer + ".bin", got);
                out.passed = false;
                out.failures.push_back(fmt::format("{} ({}): buffer \"{}\" differs from {}: {}", where, l.kernel, e.buffer, e.file, diff));
                out.failed_kernels.push_back(l.kernel);
                out.per_launch.back().failures.push_back(out.failures.back());
            }
        }
    }
    if (digests)
        for (const auto& [name, p] : dev) out.digests[name] = digest(rt, p, sizes[name]);
    for (auto& [n, p] : handles) rt.free(p);
    for (auto& [n, p] : dev) rt.free(p);
}

} // namespace gpusim
