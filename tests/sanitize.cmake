# The sanitizer stage of CI (scripts/sanitize.sh, SENDA_SANITIZE=ON) builds and runs a
# subset of the suite that fits the CI time budget: senda_sanitize_tests holds the
# unit tests of every module and the robustness tests (not tests/problems/, whose
# catalogue runs take minutes under AddressSanitizer, nor the Bratu, star dome and
# API-example tests), registered as one ctest "sanitize.unit"; with it run the CLI
# tests (trace: bad-input corpus, interruption, determinism) and fuzz.replay_corpus.
if(SENDA_SANITIZE)
  set(SENDA_SANITIZE_TEST_SOURCES
    robustness/numerical_failure_test.cpp
    input/config_test.cpp input/builder_test.cpp input/defaults_test.cpp analysis/analysis_test.cpp input/parameters_test.cpp
    linalg/factorization_test.cpp
    model/model_test.cpp model/truss_test.cpp model/spring_test.cpp model/beam2d_test.cpp model/hinge_test.cpp
    model/corot2d_test.cpp input/hinge_input_test.cpp model/ball_joint_test.cpp input/hinge3d_input_test.cpp
    analysis/studies_test.cpp input/mesh_test.cpp input/dome_test.cpp
    continuation/constraint_test.cpp continuation/path_follower_test.cpp continuation/hostile_run_test.cpp
    output/write_failure_test.cpp
    critical/locate_test.cpp critical/branch_test.cpp critical/design_test.cpp
    model/penalty_test.cpp dynamics/constraint_test.cpp input/mesh_test.cpp
    cosim/master_test.cpp cosim/exact_test.cpp dynamics/integrator_test.cpp dynamics/mass_load_test.cpp
    dynamics/snap_through_test.cpp)
  list(TRANSFORM SENDA_SANITIZE_TEST_SOURCES PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/)
  add_executable(senda_sanitize_tests main.cpp ${SENDA_SANITIZE_TEST_SOURCES})
  target_include_directories(senda_sanitize_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR})
  target_link_libraries(senda_sanitize_tests PRIVATE senda::senda senda_trace_app Catch2::Catch2)
  target_compile_definitions(senda_sanitize_tests PRIVATE
    SENDA_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    SENDA_BINARY_DIR="${PROJECT_BINARY_DIR}")
  add_test(NAME sanitize.unit COMMAND senda_sanitize_tests)
  set_tests_properties(sanitize.unit PROPERTIES LABELS "sanitize" TIMEOUT 900)
endif()
