# Tests that run the trace command (scripts in tests/cli/). Each gets its own
# scratch directory under the build tree.
set(SENDA_CLI_WORK ${CMAKE_CURRENT_BINARY_DIR}/cli)
add_test(NAME cli.von_mises
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/von_mises.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/von_mises)
add_test(NAME cli.bad_input_corpus
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/bad_input.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/bad_input
          cosim=$<TARGET_FILE:cosim> simulate=$<TARGET_FILE:simulate> dome=$<TARGET_FILE:dome>)
add_test(NAME cli.determinism.von_mises
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/determinism.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/det_vm problems/von-mises.cfg)
add_test(NAME cli.determinism.star_dome
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/determinism.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/det_sd problems/star-dome.cfg)
add_test(NAME cli.help_lists_every_key
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/help.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR}
          $<TARGET_FILE:simulate> $<TARGET_FILE:cosim>)
add_test(NAME cli.interrupt
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/interrupt.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/interrupt
          $<TARGET_FILE:simulate> $<TARGET_FILE:cosim>)
set_tests_properties(cli.interrupt PROPERTIES TIMEOUT 120)
# The results of the catalogue, a sweep, curves, an imperfection study and a
# restart against the files stored in tests/golden/ (tests/cli/golden.sh).
add_test(NAME cli.golden
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/golden.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/golden)
set_tests_properties(cli.golden PROPERTIES TIMEOUT 300)
# linalg.solver = mumps gives the runs of cholmod (tests/cli/mumps_backend.sh).
if(SENDA_HAVE_MUMPS)
  add_test(NAME cli.mumps_backend
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/mumps_backend.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/mumps_backend)
endif()
# The cosim command (issue 17): seed 002's runs, files, refusals, --help, SIGINT.
add_test(NAME cli.cosim
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/cosim.sh $<TARGET_FILE:cosim> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/cosim)
set_tests_properties(cli.cosim PROPERTIES TIMEOUT 60)
# The simulate command: snap-through, release from LP1, kick, signals, bad input (tests/cli/simulate.sh).
add_test(NAME cli.simulate
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/simulate.sh $<TARGET_FILE:simulate> $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/simulate)
set_tests_properties(cli.simulate PROPERTIES TIMEOUT 120)
# A rigid pendulum by a Lagrange multiplier: Baumgarte, projections, trace's refusal (tests/cli/pendulum_link.sh).
add_test(NAME cli.pendulum_link
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/pendulum_link.sh $<TARGET_FILE:simulate> $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${SENDA_CLI_WORK}/pendulum_link)
# The commands' choice of OpenBLAS kernels (apps/common/blas_kernel.hpp).
add_executable(blas_kernel_probe ${CMAKE_CURRENT_SOURCE_DIR}/apps/blas_kernel_probe.cpp)
target_link_libraries(blas_kernel_probe PRIVATE senda_blas_kernel senda::linalg)  # linalg: the BLAS MUMPS and CHOLMOD load
add_library(blas_prescott_stub SHARED ${CMAKE_CURRENT_SOURCE_DIR}/apps/prescott_stub.cpp)
add_test(NAME apps.blas_kernel
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/apps/blas_kernel.sh $<TARGET_FILE:blas_kernel_probe>
          $<TARGET_FILE:blas_prescott_stub>)
