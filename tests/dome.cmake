# The lattice-dome generator, apps/dome (tests/cli/dome.sh).
add_test(NAME cli.dome
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/dome.sh $<TARGET_FILE:dome> $<TARGET_FILE:trace> ${CMAKE_CURRENT_BINARY_DIR}/cli/dome)
