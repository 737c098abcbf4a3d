# Included just before project(flashssd) by `pip install .` (pyproject.toml sets
# CMAKE_PROJECT_flashssd_INCLUDE_BEFORE to this file). When the caller gave no
# CUTLASS_DIR and scripts/setup_deps.sh has not filled .deps/cutlass, use the
# CUTLASS/CuTe headers of the pinned nvidia-cutlass wheel that pyproject.toml
# lists as a build requirement (the same wheel setup_deps.sh installs). Nothing
# is downloaded here.
if(NOT DEFINED CUTLASS_DIR
   AND NOT EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/.deps/cutlass/cutlass_library/source/include/cute/tensor.hpp"
   AND DEFINED Python_EXECUTABLE)
  execute_process(
    COMMAND "${Python_EXECUTABLE}" -c
      "import importlib.util, os; s = importlib.util.find_spec('cutlass_library'); print(os.path.join(list(s.submodule_search_locations)[0], 'source') if s else '')"
    OUTPUT_VARIABLE _flashssd_cutlass OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_flashssd_cutlass AND EXISTS "${_flashssd_cutlass}/include/cute/tensor.hpp")
    set(CUTLASS_DIR "${_flashssd_cutlass}" CACHE PATH "CUTLASS root (from the nvidia-cutlass build requirement)")
    message(STATUS "flashssd: CUTLASS headers from the nvidia-cutlass wheel: ${_flashssd_cutlass}")
  endif()
  unset(_flashssd_cutlass)
endif()
