# Path following without silent wrong answers (issue 19, items 1-7 and 9): one test per
# case of tests/cli/path_following.sh, on the structures of tests/continuation/cfg/.
foreach(case control-refused runaway monotone-control control-turning-point no-return no-jump close-points
        outside-bracket unlocated-null stiff-shear cancelling-pair)
  add_test(NAME cli.path_following.${case}
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/path_following.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/cli/path_following_${case} ${case})
endforeach()
