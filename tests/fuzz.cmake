# Fuzz target on the configuration reader and model builder (tests/fuzz/).
#  - Every build: senda_fuzz_replay runs the seed corpus (problems/*.cfg,
#    tests/bad-input/*.cfg) and every past finding (tests/fuzz/corpus/) through
#    the target's function: ctest fuzz.replay_corpus.
#  - SENDA_FUZZ=ON (clang, see the top-level CMakeLists.txt): senda_config_fuzz,
#    the libFuzzer program run by scripts/fuzz.sh.
add_executable(senda_fuzz_replay ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/config_fuzz.cpp
                                 ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay_main.cpp)
target_link_libraries(senda_fuzz_replay PRIVATE senda::input)
add_test(NAME fuzz.replay_corpus
  COMMAND senda_fuzz_replay ${PROJECT_SOURCE_DIR}/problems ${CMAKE_CURRENT_SOURCE_DIR}/bad-input
                            ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus)
set_tests_properties(fuzz.replay_corpus PROPERTIES LABELS "robustness" TIMEOUT 120)

if(SENDA_FUZZ)
  add_executable(senda_config_fuzz ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/config_fuzz.cpp)
  target_link_libraries(senda_config_fuzz PRIVATE senda::input)
  target_link_options(senda_config_fuzz PRIVATE -fsanitize=fuzzer)
endif()
