# troupe_asan_twins(LIBRARY...): for each library, LIBRARY_asan: the same
# sources, include directories, definitions and options, compiled with ASan
# and UBSan at -O0 and linking the twins of the libraries it links.
#
# Why twins in the Release tree rather than a tree of their own: the unit
# tests are the half of the build that both need, and they are the same
# code in both. Compiled once (tests/CMakeLists.txt's troupe_unit_test_objects),
# they link once against the Release libraries (troupe_tests) and once against
# these (troupe_tests_asan), so scripts/sanitize.sh address compiles only the
# libraries again. What that leaves unchecked: the tests' own code, and
# templates and inline functions of the libraries' headers where a test's
# translation unit instantiates them (the libraries' own copies are checked).
# Heap memory a test allocates is still guarded (ASan replaces malloc for the
# whole process), so a library that writes past a test's buffer is caught.
#
# Call it in the directory that defines the libraries: source file properties
# (COMPILE_OPTIONS of the by-hand passes, data_file.cpp's definition) belong to
# that directory.
function(troupe_asan_twins)
  set(libraries ${ARGN})
  foreach(library ${libraries})
    get_target_property(directory ${library} SOURCE_DIR)
    get_target_property(sources ${library} SOURCES)
    set(paths)
    foreach(source ${sources})
      if(IS_ABSOLUTE "${source}" OR source MATCHES "^\\$<")
        list(APPEND paths "${source}")
      else()
        list(APPEND paths "${directory}/${source}")
      endif()
    endforeach()
    # Built only when asked for (cmake --build build --target troupe_tests_asan).
    add_library(${library}_asan STATIC EXCLUDE_FROM_ALL ${paths})
    foreach(property INCLUDE_DIRECTORIES INTERFACE_INCLUDE_DIRECTORIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES
                     COMPILE_DEFINITIONS INTERFACE_COMPILE_DEFINITIONS COMPILE_OPTIONS INTERFACE_COMPILE_OPTIONS
                     LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
      get_target_property(values ${library} ${property})
      if(NOT values)
        continue()
      endif()
      set(twinned)
      foreach(value ${values})
        foreach(other ${libraries})
          if(value STREQUAL other)
            set(value ${other}_asan)
          else()
            # A static library's private dependency, as its users see it.
            string(REPLACE "$<LINK_ONLY:${other}>" "$<LINK_ONLY:${other}_asan>" value "${value}")
          endif()
        endforeach()
        list(APPEND twinned "${value}")
      endforeach()
      set_property(TARGET ${library}_asan PROPERTY ${property} "${twinned}")
    endforeach()
    # After the build type's -O3 -DNDEBUG, so -O0 wins. NDEBUG stays defined:
    # the tests' objects were compiled with it, and a header that changed a
    # type's layout by it would then disagree with them.
    target_compile_options(${library}_asan PRIVATE -O0 -g1 -fsanitize=address,undefined -fno-omit-frame-pointer)
  endforeach()
endfunction()
