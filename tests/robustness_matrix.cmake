# Robustness matrix (issue 19, docs/validation.md "Robustness matrix"): each structure
# traced with every arc-length constraint, displacement control where natural, and
# two initial steps locates the critical points of the file's own run, or reports
# them not located with a bracket that holds them. One test per structure; the
# script needs only Python's standard library.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  foreach(structure three-bar von-mises euler-column leaning-column euler-column-default-scaling
          leaning-column-default-scaling roorda-frame lee-frame eriksson-frame
          star-dome three-bar-imperfect von-mises-sway von-mises-sway-log williams-toggle dadeppo-arch)
    add_test(NAME cli.robustness_matrix.${structure}
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/robustness_matrix.py $<TARGET_FILE:trace>
              ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli/robustness_matrix ${structure})
  endforeach()
endif()

