# Distributed runs (issue 14 item 3, tests/cli/mpi.sh): only in a build with
# -DSENDA_MPI=ON and where mpirun is found. scripts/test.sh runs them in build-mpi/
# (ctest -L mpi); the default build registers none.
if(SENDA_MPI)
  find_program(SENDA_MPIRUN NAMES mpirun mpiexec HINTS ${MPIEXEC_EXECUTABLE})
  find_program(SENDA_TEST_PYTHON NAMES python3)
  if(SENDA_MPIRUN AND SENDA_TEST_PYTHON)
    foreach(mode same-points refusals interrupt)
      add_test(NAME mpi.${mode}
        COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/mpi.sh ${mode} $<TARGET_FILE:trace> $<TARGET_FILE:dome>
                ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli/mpi-${mode} ${SENDA_MPIRUN} ${SENDA_TEST_PYTHON})
      set_tests_properties(mpi.${mode} PROPERTIES LABELS mpi TIMEOUT 600)
    endforeach()
  else()
    message(STATUS "SENDA_MPI: mpirun or python3 not found, the mpi.* tests are not registered")
  endif()
endif()
