# Figures: trace --plot writes plot.gp and renders PNG/SVG with gnuplot
# (tests/cli/plot.sh). Skipped (exit 77) where gnuplot is not installed.
add_test(NAME cli.plot.von_mises
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/plot.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli/plot)
set_tests_properties(cli.plot.von_mises PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
# The figures of the manual (scripts/make-figures.sh: three-bar, von Mises, the
# four frames of the catalogue, imperfect three-bar, and the von Mises h and
# Eriksson H sweeps) produced from this build into the build tree (a few seconds).
add_test(NAME cli.plot.catalogue_figures
  COMMAND ${CMAKE_COMMAND} -E env WORK=${CMAKE_CURRENT_BINARY_DIR}/cli/figures-work
          bash ${PROJECT_SOURCE_DIR}/scripts/make-figures.sh $<TARGET_FILE:trace> ${CMAKE_CURRENT_BINARY_DIR}/cli/figures)
set_tests_properties(cli.plot.catalogue_figures PROPERTIES TIMEOUT 300)
# trace --plot with design.follow: plot.gp's and curves.gp's gnuplot runs each keep
# their own log (tests/cli/plot_logs.sh; a stand-in gnuplot, so never skipped).
add_test(NAME cli.plot.logs
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/plot_logs.sh $<TARGET_FILE:trace> ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli/plot-logs)
set_tests_properties(cli.plot.logs PROPERTIES TIMEOUT 120)
