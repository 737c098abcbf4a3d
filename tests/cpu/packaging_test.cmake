# ctest driver: install the build tree into a scratch prefix, then configure,
# build and run tests/cpu/consumer against it with find_package(flashssd).
# Inputs: BUILD_DIR, CONSUMER_SOURCE, WORK_DIR, GENERATOR.
set(prefix "${WORK_DIR}/prefix")
set(consumer_build "${WORK_DIR}/consumer-build")
file(REMOVE_RECURSE "${WORK_DIR}")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("-- ${what}:\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "packaging test: ${what} failed (exit ${rc})")
  endif()
endfunction()

run("install" ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
run("configure consumer" ${CMAKE_COMMAND} -S "${CONSUMER_SOURCE}" -B "${consumer_build}" -G "${GENERATOR}"
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
run("build consumer" ${CMAKE_COMMAND} --build "${consumer_build}")
if(EXISTS "${consumer_build}/consumer")
  run("run consumer" "${consumer_build}/consumer")
else()
  message(FATAL_ERROR "packaging test: consumer executable not found in ${consumer_build}")
endif()
