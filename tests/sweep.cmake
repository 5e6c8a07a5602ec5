# trace --sweep (tests/cli/sweep.sh).
add_test(NAME cli.sweep
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/sweep.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli/sweep)
set_tests_properties(cli.sweep PROPERTIES TIMEOUT 120)
