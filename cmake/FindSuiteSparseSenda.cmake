# Finds CHOLMOD and UMFPACK from Debian's libsuitesparse-dev (5.x ships no CMake
# package configuration) and defines SuiteSparse::CHOLMOD and SuiteSparse::UMFPACK.
find_path(SuiteSparse_INCLUDE_DIR cholmod.h PATH_SUFFIXES suitesparse)
find_library(CHOLMOD_LIBRARY cholmod)
find_library(UMFPACK_LIBRARY umfpack)
find_library(SUITESPARSECONFIG_LIBRARY suitesparseconfig)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SuiteSparseSenda
  REQUIRED_VARS SuiteSparse_INCLUDE_DIR CHOLMOD_LIBRARY UMFPACK_LIBRARY SUITESPARSECONFIG_LIBRARY)
if(SuiteSparseSenda_FOUND)
  if(NOT TARGET SuiteSparse::CHOLMOD)
    add_library(SuiteSparse::CHOLMOD UNKNOWN IMPORTED)
    set_target_properties(SuiteSparse::CHOLMOD PROPERTIES
      IMPORTED_LOCATION "${CHOLMOD_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${SuiteSparse_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES "${SUITESPARSECONFIG_LIBRARY}")
  endif()
  if(NOT TARGET SuiteSparse::UMFPACK)
    add_library(SuiteSparse::UMFPACK UNKNOWN IMPORTED)
    set_target_properties(SuiteSparse::UMFPACK PROPERTIES
      IMPORTED_LOCATION "${UMFPACK_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${SuiteSparse_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES "${SUITESPARSECONFIG_LIBRARY}")
  endif()
endif()
