# Hostile inputs and runs (issue 20): a signal inside each long loop, a run from a
# saved state whose branches all fail.
add_test(NAME cli.stop_in_loops
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/stop_in_loops.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/stop_in_loops)
set_tests_properties(cli.stop_in_loops PROPERTIES TIMEOUT 120)
add_test(NAME cli.from_termination
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/from_termination.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/from_termination)
