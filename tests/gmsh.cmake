# The committed meshes are what the gmsh program writes from their .geo scripts
# (tests/cli/gmsh_regenerate.sh); skipped (exit 77) where gmsh is not installed.
add_test(NAME cli.gmsh-regenerate
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/gmsh_regenerate.sh ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli/gmsh)
set_tests_properties(cli.gmsh-regenerate PROPERTIES SKIP_RETURN_CODE 77 LABELS mesh)
