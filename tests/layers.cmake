# The architecture rules (tests/cli/layers.sh): include graph, no Config in
# analysis/, no exit code in lib/, statuses as enums, a short main.
add_test(NAME architecture.layers COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/layers.sh ${PROJECT_SOURCE_DIR})
