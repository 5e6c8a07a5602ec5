# Downstream package test: install this build to a scratch prefix, then configure,
# build and run a separate project that finds it with find_package(Senda) and
# traces the von Mises truss through the C++ API (tests/downstream/).
add_test(NAME downstream_find_package
  COMMAND ${CMAKE_COMMAND}
    -DSENDA_BUILD_DIR=${PROJECT_BINARY_DIR}
    -DDOWNSTREAM_SOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}/downstream
    -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/downstream-work
    -DCMAKE_GENERATOR=${CMAKE_GENERATOR}
    -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/downstream/run.cmake)
set_tests_properties(downstream_find_package PROPERTIES LABELS "package" TIMEOUT 600)
