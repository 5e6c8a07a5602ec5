# Path following without silent wrong answers (issue 19, items 1-7 and 9, and every
# case added since): one test per case of tests/cli/path_following.sh, on the
# structures of tests/continuation/cfg/ and the catalogue. The cases are read from
# the script's own `case=NAME` lines, so that a case added there is a test here
# (until 2026-12-07 the list was typed here, and fourteen cases written since the
# first eleven had never run in CI).
file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/cli/path_following.sh path_following_cases REGEX "^case=[a-z0-9-]+$")
list(TRANSFORM path_following_cases REPLACE "^case=" "")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cli/path_following.sh)
foreach(case IN LISTS path_following_cases)
  add_test(NAME cli.path_following.${case}
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/path_following.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/cli/path_following_${case} ${case})
endforeach()
