// The config reference, docs/config.md, as `gpusim config --doc` prints it: the prose on finding,
// deriving, overriding and validating configs, around the keys' tables (config/config_reference.h)
// with a column per bundled config. A test holds docs/config.md to it.
#include "gpu/config_reference.h"

#include <cctype>

#include <fmt/format.h>

#include "config/config_reference.h"
#include "config/config_schema.h"
#include "gpu/config_outline.h"
#include "gpu/gpu_config.h"

namespace gpusim {

namespace {

const char* const kIntro = R"(# GPU configuration reference

This page is generated: `gpusim config --doc` prints it from the keys each unit declares in code
(their type, unit, range, default and meaning) and from the bundled configs (their values and the
sources of their values), and `regress.config_reference` fails when this file differs from it.
Edit the declarations (`rtl_models/*/*_keys.cpp`) or the configs (`rtl_models/configs/`), then
run `build/gpusim config --doc > docs/config.md`.

A GPU generation is described by one JSON file in `rtl_models/configs/`. The columns below are the
bundled configs, by compute capability: {columns}.

## Finding a config

`--config` and the manifest's `"config"` key accept either a **name** or a **path**:

- A value that contains `/` or `.json` is a path to a JSON file. A relative path is resolved
  against the current working directory, *not* the manifest's folder.
- Anything else is a name and is looked up as `DIR/NAME.json`. `DIR` is the environment variable
  `GPUSIM_CONFIG_DIR` if set, otherwise the build-time default (the source tree's
  `rtl_models/configs`). If the file does not exist the error is
  `unknown config 'NAME' (no DIR/NAME.json)`.

When neither `--config` nor the manifest names one, `fermi-gf100` is used. The runtime library
takes `GPUSIM_CONFIG`. `gpusim config --show NAME` prints a config as the model resolves it: its
base, the defaults and any `--set` applied.

## A config's file

- **`"base"`**: the name of another config (or a path to one, relative to this file). The config
  is its base's values with its own on top: it states only what differs, and its own `name` and
  `description`. A base may have a base of its own.
- **Required keys and defaults**: a key with a default (the simulator's own knobs: `sim.*`,
  `smem.impl`, `smem.rtl_vcd`, `sfu.approx`) may be left out; every other key must be stated by
  the config or its base.
- **`"sources"`**: where the config's values come from: `{"KEY": "text"}`, where KEY is a key or a
  group of keys (`"ops.sfu"`, `"pipes.alu"`). A config inherits its base's source of a key only
  with the key's value: where it states the value, it gives the source too. A source of a group of
  keys is inherited until the config gives its own for the group. The tables below list every
  config's sources under each part. Tags (PG3.2, PG5.5, FWP, GS-480, …) and section numbers (§3a)
  refer to [reference/timing_tables.md](reference/timing_tables.md), which holds the original
  citations; *model choice* marks values no retrieved source gives.

## Keys

)";

const char* const kOverrides = R"(## Overriding keys: `--set key=value`

`gpusim run|bench|microbench … --set KEY=VALUE` (repeatable; the runtime library takes
`GPUSIM_SET=KEY=VALUE,KEY=VALUE`) changes a key after the file and its base are read and before
the config is validated; `--mode M` is shorthand for `--set sim.mode=M`:

- `KEY` is any key of the tables above (`sm.warp_schedulers`, `ops.sfu.latency`,
  `pipes.alu.lanes`, `name`). Anything else is an error: `--set: unknown config key 'KEY' in FILE`.
- `VALUE` is parsed as JSON; if that fails it is taken as a bare string. Its JSON type must be the
  key's type: otherwise the error is `--set KEY=VALUE: expected a TYPE value`. So
  `--set sm.warp_schedulers=4` and `--set pcie.bandwidth_gb_s=16` work. A key whose values are
  text takes VALUE as written (`--set chip.compute_capability=7.5`, `--set name=my-gpu`).
- A `--set` without `=` (or with nothing before `=`) is an error: `--set expects key=value, got '…'`.

Overrides apply to whichever config is in force: `--config` if given, otherwise the manifest's
`"config"`.

CLI11 lets `--set` take several values in a row: manifest paths that follow it can be taken as
further `--set` values (for `run` when more than one manifest follows, and for `bench` always). Put
the manifests first (`gpusim run a.json b.json --set k=v`), or end the list with `--`.

## Validation

`load_config` collects **every** problem and then throws a single error:

```
PATH: error: invalid config:
  missing key 'sm.max_ctas'
  key 'chip.num_sms' must be a non-negative integer that fits 32 bits, got "many"
  unknown key 'sm.l1_bytes'
  sm.warp_schedulers must be ≥ 1, got 0
```

- **Missing keys:** every key without a default must be stated by the config or its base.
- **Wrong type:** a value of another JSON type than the key's, an integer key's value that is
  negative, fractional or too large for the field, an array of the wrong length.
- **Unknown keys:** any key, at any depth, that is not in the tables above; a `"sources"` entry
  that names no key or group of keys.
- **Ranges:** each key's range in the tables above, and these across keys:
  `chip.max_threads_per_block ≤ sm.max_threads`; the cache line of `l1`, `l2`, `ccache` and `tex`
  at most 2 MiB (the largest timing request); `ccache.bytes` and `tex.bytes` positive;
  `smem.impl` `rtl` only in a build with Verilator 5 and for the bank geometries the RTL covers
  (`smem.interleave_bytes` 4, `smem.banks` 16 or 32, `smem.bank_width_bytes` 4 or 8,
  `smem.max_group_threads` 16 or 32; cc 1.x's rules with 4-byte banks only).

Other failures: `PATH: error: cannot open config file`, `PATH: error: invalid JSON: …`, and a
base that cannot be found or that leads back to itself.

The resolved config (base, overrides and defaults applied) is `GpuConfig::effective`; `gpusim run
--stats FILE` writes it under `"config"` next to the statistics.
)";

// "fermi-gf100" -> "GF100".
std::string column_title(const std::string& name) {
    std::string t = name.substr(name.find('-') + 1);
    for (char& ch : t) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    return t;
}

} // namespace

std::string config_reference() {
    std::vector<ConfigColumn> columns;
    std::string titles;
    for (const std::string& name : bundled_configs()) {
        const GpuConfig c = load_config(name);
        columns.push_back({column_title(c.name), c.effective, c.sources});
        titles += (titles.empty() ? "" : ", ") + fmt::format("{} (`{}`, compute capability {})", columns.back().title, name,
                                                             c.compute_capability);
    }
    std::string intro = kIntro;
    intro.replace(intro.find("{columns}"), 9, titles);
    return intro + reference_tables(config_schema(), columns, 3) + kOverrides;
}

} // namespace gpusim
