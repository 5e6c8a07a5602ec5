# trace --imperfection (tests/cli/imperfection.sh).
add_test(NAME cli.imperfection
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/imperfection.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli/imperfection)
set_tests_properties(cli.imperfection PROPERTIES TIMEOUT 120)
