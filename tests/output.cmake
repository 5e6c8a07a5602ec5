# Result files for people (tests/cli/outputs.sh): VTK files for ParaView, SVG
# drawings, the progress output on a terminal and elsewhere.
add_test(NAME cli.outputs
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/outputs.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli/outputs)
set_tests_properties(cli.outputs PROPERTIES TIMEOUT 120)
