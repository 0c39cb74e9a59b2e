# Every class of bad input gets a clear message and its exit code (docs/errors.md): the config and
# --set, the manifest, launch limits, the command line. PTX errors, device faults and hangs have
# their own tests above and in checks.cmake; these add the classes those do not reach.
set(errors ${CMAKE_CURRENT_SOURCE_DIR}/errors)
set(vadd ${CMAKE_CURRENT_SOURCE_DIR}/kernels/vadd/manifest.json)
set(bad_input_cases
  "config_unknown_name|3|run|${vadd}|--config|nosuch|unknown config 'nosuch' \\(no [^ ]*nosuch.json\\)"
  "config_not_json|3|run|${vadd}|--config|${errors}/config_not_json.json|config_not_json.json: error: invalid JSON: .*line 1, column 20"
  "config_wrong_keys|3|run|${vadd}|--config|${errors}/config_broken.json|config_broken.json: error: invalid config:\n  missing key 'description'@@key 'chip.num_sms' must be a non-negative integer that fits 32 bits, got \"many\"@@unknown key 'chip.colour'"
  "set_without_value|3|run|${vadd}|--set|chip.num_sms|--set expects key=value, got 'chip.num_sms'"
  "set_unknown_key|3|run|${vadd}|--set|chip.nonsense=1|--set: unknown config key 'chip.nonsense'"
  "set_wrong_type|3|run|${vadd}|--set|chip.num_sms=many|--set chip.num_sms=many: expected a number value"
  "manifest_not_json|3|run|${errors}/not_json.json|not_json.json: error: invalid JSON: .*line 2, column 1"
  "manifest_unknown_kernel|3|run|${errors}/unknown_kernel.json|unknown_kernel.json: error: launches\\[0\\]: module has no kernel \"vsub\" \\(it has: vadd\\)"
  "buffer_larger_than_memory|3|run|${errors}/buffer_too_large.json|buffer_too_large.json: error: buffer \"a\": out of device memory: 4000000000000 bytes requested"
  "grid_too_large|3|run|${errors}/grid_too_large.json|launch of 'vadd' with grid \\(32,1,70000\\) and block \\(128,1,1\\): the grid exceeds 65535 x 65535 x 65535"
  "block_too_large|3|run|${errors}/block_too_large.json|block \\(1,1,128\\): the block exceeds 1024 x 1024 x 64"
  "shared_too_large|3|run|${errors}/shared_too_large.json|60000 bytes of shared memory, the maximum is 49152"
  "block_does_not_fit|3|run|${vadd}|--set|sm.max_warps=2|launch of 'vadd': a block of 128 threads using [0-9]+ registers per thread and 0 bytes of shared memory does not fit on an SM"
  "usage_bad_mode|2|run|${vadd}|--mode|fast|--mode fast: expected functional or timing"
  "deadlock_is_a_fault|4|run|${errors}/deadlock.json|barrier deadlock in block"
  "host_timeout_is_a_hang|5|run|${errors}/spin.json|--set|sim.max_cycles=0|--timeout|0.5|ran past sim.timeout_seconds"
  "vcd_in_functional_mode|3|run|${vadd}|--mode|functional|--vcd|${CMAKE_CURRENT_BINARY_DIR}/bad.vcd|bad.vcd: a waveform records the timing model's signals: run in timing mode"
  "vcd_no_such_signal|3|run|${vadd}|--mode|timing|--vcd|${CMAKE_CURRENT_BINARY_DIR}/bad.vcd|--vcd-signals|sm_0.issued,sm_99.*|no waveform signal matches 'sm_99.\\*' \\(--vcd-signals, GPUSIM_VCD_SIGNALS\\). the signals are: compute_engine.grid, copy_engine_\\*.busy, sm_\\*.issued, .*dram_ctrl.channel_\\*.busy"
  "vcd_not_a_vcd_name|3|run|${vadd}|--mode|timing|--vcd|${CMAKE_CURRENT_BINARY_DIR}/bad.txt|bad.txt: a waveform file's name must end in .vcd"
  "vcd_unwritable|3|run|${vadd}|--mode|timing|--vcd|${CMAKE_CURRENT_BINARY_DIR}/no/such/folder/w.vcd|w.vcd: cannot write the waveform file"
  "usage_vcd_signals_alone|2|run|${vadd}|--vcd-signals|sm_0.*|--vcd-signals chooses the signals of --vcd FILE")
foreach(c ${bad_input_cases})
  outcome_test(bad_input "${c}")
endforeach()
