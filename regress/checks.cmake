# Device faults, --memcheck and --racecheck (docs/checks.md): each fault kind's report names the
# kernel, block, thread, warp, instruction, PTX line, access and the allocation near it; each classic
# race is reported with both accesses, and each corrected kernel gives no report.
set(checks ${CMAKE_CURRENT_SOURCE_DIR}/checks)
set(at "at [^ ]*faults.ptx:[0-9]+")
set(check_cases
  "read_past_end_silent|0|faults_read_past_end.json||PASS   faults_read_past_end"
  "read_past_end_memcheck|4|faults_read_past_end.json|--memcheck|kernel 'read_past_end' faulted: block \\(0,0,0\\) thread \\(100,0,0\\) \\(warp 3, lane 4\\): 'ld.global.f32' ${at}: global read of 4 bytes at address 0x[0-9a-f]+ \\(outside its allocation, found by memcheck\\): 0 bytes past the end of buffer 'a' \\(400 bytes, cudaMalloc #1\\)"
  "write_far|4|faults_write_far.json||'st.global.u32' ${at}: global write of 4 bytes at address 0x[0-9a-f]+ \\(address is not mapped\\): 4096 bytes past the end of buffer 'a' \\(16 MiB, cudaMalloc #1\\)"
  "write_before|4|faults_write_before.json||global write of 4 bytes at address 0x[0-9a-f]+ \\(address is not mapped\\): 1024 bytes before buffer 'J' \\(16 MiB, cudaMalloc #1\\)"
  "write_before_driver_layout|0|faults_write_before.json|--config|hopper-h100|PASS   faults_write_before"
  "write_before_driver_layout_memcheck|4|faults_write_before.json|--config|hopper-h100|--memcheck|global write of 4 bytes at address 0x[0-9a-f]+ \\(outside its allocation, found by memcheck\\): 1024 bytes before buffer 'J' \\(16 MiB, cudaMalloc #1\\)"
  "misaligned|4|faults_misaligned.json||'st.global.u32' ${at}: global write of 4 bytes at address 0x[0-9a-f]*2 \\(misaligned address\\)"
  "null|4|faults_null.json||global write of 4 bytes at address 0x0 \\(address is not mapped\\): a null pointer, or an offset from one"
  "stack_overflow|4|faults_stack_overflow.json||'call.uni' ${at} in function '_Z5depthiPVi': stack overflow calling '_Z5depthiPVi' at call depth [0-9]+"
  "local_out_of_range|4|faults_local.json||'st.local.u32' ${at}: local write of 4 bytes at address 0x[0-9a-f]+ \\(address out of range\\)"
  "shared_out_of_range|4|faults_shared.json||'st.shared.u32' ${at}: shared write of 4 bytes at address 0x400000 \\(address out of range\\)"
  "trap|4|faults_trap.json||thread \\(5,0,0\\) \\(warp 0, lane 5\\): 'trap' ${at}: trap instruction executed"
  "assert|4|faults_assert.json||faults.cu:[0-9]+: void assert_kernel\\(const int \\*\\): block: \\[0,0,0\\], thread: \\[10,0,0\\] Assertion `in\\[threadIdx.x\\] < 10` failed.@@thread \\(10,0,0\\) \\(warp 0, lane 10\\): 'call.uni' ${at}: Assertion")
set(shared_race "racecheck: shared-memory")
set(global_race "racecheck: global-memory")
set(rat "at [^ ]*races.ptx:[0-9]+")
list(APPEND check_cases
  "race_reduce_missing_sync|7|race_reduce_missing_sync.json|--racecheck|${shared_race} read-after-write hazard in kernel 'reduce_missing_sync', block \\([0-9]+,0,0\\): 4 bytes at shared address 0x[0-9a-f]+\n  write  by thread \\([0-9]+,0,0\\) \\(warp [1-7]\\): 'st.shared.f32' ${rat}\n  read   by thread \\([0-9]+,0,0\\) \\(warp [0-6]\\): 'ld.shared.f32' ${rat}\n  no barrier between them"
  "race_neighbour_early|7|race_neighbour_early.json|--racecheck|${shared_race} read-after-write hazard in kernel 'neighbour_early'@@  write  by thread \\([0-9]+,0,0\\) \\(warp [0-7]\\): 'st.shared.f32' ${rat}\n  read   by thread \\([0-9]+,0,0\\) \\(warp [0-7]\\): 'ld.shared.f32' ${rat}@@${shared_race} write-after-read hazard in kernel 'neighbour_early'"
  "race_histogram_zeroed_late|7|race_histogram_zeroed_late.json|--racecheck|${global_race} write-after-write hazard in kernel 'histogram_zeroed_late': 4 bytes at 0x[0-9a-f]+ \\(at offset [0-9]+ of buffer 'bins' \\(256 bytes, cudaMalloc #2\\)\\)@@  write  by block \\(0,0,0\\) thread \\([0-9]+,0,0\\): 'st.global.u32' ${rat}@@  atomic by block \\([1-7],0,0\\) thread \\([0-9]+,0,0\\): 'atom.global.add.u32' ${rat}"
  "race_fence_reduction_unfenced|7|race_fence_reduction_unfenced.json|--racecheck|${global_race} read-after-write hazard in kernel 'fence_reduction_unfenced': 4 bytes at 0x[0-9a-f]+ \\(at offset [0-9]+ of buffer 'partial'@@  write  by block \\([1-7],0,0\\) thread \\(0,0,0\\): 'st.global.f32' ${rat}\n  read   by block \\([0-7],0,0\\) thread \\(0,0,0\\): 'ld.global.f32' ${rat}\n  the blocks do not synchronise: no fence of gpu scope after the first access"
  "race_reduce_ok|0|race_reduce_ok.json|--racecheck|PASS   race_reduce_ok"
  "race_neighbour_ok|0|race_neighbour_ok.json|--racecheck|PASS   race_neighbour_ok"
  "race_histogram_ok|0|race_histogram_ok.json|--racecheck|PASS   race_histogram_ok"
  "race_fence_reduction|0|race_fence_reduction.json|--racecheck|PASS   race_fence_reduction"
  "race_shadow_limit|0|race_histogram_zeroed_late.json|--racecheck|--set|sim.racecheck_shadow_mib=0|racecheck: the global shadow is full \\(0 MiB of host memory, sim.racecheck_shadow_mib\\). global memory first touched from here on is not checked")
# Each case: NAME|EXIT|MANIFEST|FLAG...|PATTERNS, run in both modes.
foreach(c ${check_cases})
  string(REPLACE "|" ";" fields "${c}")
  list(POP_FRONT fields name expected manifest)
  list(POP_BACK fields patterns)
  set(args run ${checks}/${manifest} ${fields})   # an empty FLAG field adds nothing
  string(REPLACE ";" "|" args "${args}")
  foreach(mode functional timing)
    outcome_test(checks "${name}.${mode}|${expected}|${args}|--mode|${mode}|${patterns}")
  endforeach()
endforeach()
# The checks find nothing in the correct regression kernels, in either mode.
file(GLOB clean_manifests ${CMAKE_CURRENT_SOURCE_DIR}/kernels/*/manifest.json)
string(REPLACE ";" "|" clean_manifests "${clean_manifests}")
foreach(mode functional timing)
  add_test(NAME regress.checks.kernels_clean.${mode}
    COMMAND ${CMAKE_COMMAND} -DGPUSIM=$<TARGET_FILE:gpusim> "-DARGS=run|${clean_manifests}|--memcheck|--racecheck|--mode|${mode}"
            -DEXPECTED=0 -P ${CMAKE_CURRENT_SOURCE_DIR}/check_report.cmake)
endforeach()
