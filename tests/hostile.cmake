# Hostile inputs and runs (issue 20): a signal inside each long loop, a run from a
# saved state whose branches all fail, a full disk, inputs whose cost is far
# above their size.
add_test(NAME cli.stop_in_loops
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/stop_in_loops.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/stop_in_loops)
set_tests_properties(cli.stop_in_loops PROPERTIES TIMEOUT 120)
add_test(NAME cli.from_termination
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/from_termination.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/from_termination)
# A full disk: a 64 kB tmpfs (root only; skipped otherwise).
add_test(NAME cli.full_disk
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/full_disk.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/full_disk)
set_tests_properties(cli.full_disk PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
# Under ulimit -v 2 GB: a 10 GB sparse .cfg, /dev/zero as a mode file, 10^8 elements.
add_test(NAME cli.bounded_memory
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/bounded_memory.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/bounded_memory)
set_tests_properties(cli.bounded_memory PROPERTIES SKIP_RETURN_CODE 77)
if(SENDA_SANITIZE OR SENDA_FUZZ)
  set_tests_properties(cli.bounded_memory PROPERTIES ENVIRONMENT SENDA_ASAN_BUILD=1)
endif()
