# Included last (fragments are read in name order): after every other CLI test, no
# run that ended with exit 0 has a non-finite or runaway value in its summary.json
# or any .csv it wrote, nor any sweep in sweep.json or sweep.csv (issue 19;
# tests/cli/scan_outputs.py). DEPENDS orders it after all
# of them in a full run; run alone, before they wrote anything, it is skipped.
if(Python3_Interpreter_FOUND)
  get_property(senda_all_tests DIRECTORY PROPERTY TESTS)
  list(FILTER senda_all_tests INCLUDE REGEX "^cli\\.")
  add_test(NAME cli.scan_outputs
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/scan_outputs.py ${CMAKE_CURRENT_BINARY_DIR} 50)
  set_tests_properties(cli.scan_outputs PROPERTIES DEPENDS "${senda_all_tests}" SKIP_RETURN_CODE 77)
endif()
