# cmake -DSENDA_BUILD_DIR=... -DDOWNSTREAM_SOURCE_DIR=... -DWORK_DIR=... -P run.cmake
# Every stage must succeed; the last one runs the downstream program, whose exit
# code says whether the limit load came out right.
foreach(var SENDA_BUILD_DIR DOWNSTREAM_SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run.cmake: ${var} not set")
  endif()
endforeach()
if(NOT BUILD_TYPE)
  set(BUILD_TYPE Release)
endif()
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "downstream test: ${what} failed (${rc})\n${out}\n${err}")
  endif()
  message(STATUS "${what}: ok")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

run_step("install to ${prefix}" ${CMAKE_COMMAND} --install ${SENDA_BUILD_DIR} --prefix ${prefix})
set(generator_args)
if(CMAKE_GENERATOR)
  set(generator_args -G ${CMAKE_GENERATOR})
endif()
# Only the scratch prefix is searched for Senda, never the source or build tree.
run_step("configure downstream" ${CMAKE_COMMAND} ${generator_args} -S ${DOWNSTREAM_SOURCE_DIR} -B ${WORK_DIR}/build
         -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON)
run_step("build downstream" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run_step("run downstream" ${WORK_DIR}/build/senda_downstream)
message(STATUS "${step_output}")
