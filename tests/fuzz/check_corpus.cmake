# Checks that the committed seed corpora are exactly what gen_corpus writes, or with
# -DUPDATE=ON replaces them with it.
# Usage: cmake -DGENERATOR=<gen_corpus> -DCORPUS=<tests/fuzz/corpus> -DSCRATCH=<dir>
#              -DTARGETS=<fuzz_core,fuzz_sql,...> [-DUPDATE=ON] -P check_corpus.cmake
string(REPLACE "," ";" TARGETS "${TARGETS}")
file(REMOVE_RECURSE ${SCRATCH})
foreach(target IN LISTS TARGETS)
  file(MAKE_DIRECTORY ${SCRATCH}/${target})
endforeach()
execute_process(COMMAND ${GENERATOR} ${SCRATCH} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${GENERATOR} failed: ${status}")
endif()

if(UPDATE)
  file(REMOVE_RECURSE ${CORPUS})
  file(COPY ${SCRATCH}/ DESTINATION ${CORPUS})
  message(STATUS "Wrote the seed corpora to ${CORPUS}")
  return()
endif()

file(GLOB_RECURSE generated RELATIVE ${SCRATCH} ${SCRATCH}/*)
file(GLOB_RECURSE committed RELATIVE ${CORPUS} ${CORPUS}/*)
list(SORT generated)
list(SORT committed)
if(NOT generated STREQUAL committed)
  set(missing ${generated})
  list(REMOVE_ITEM missing ${committed})
  set(extra ${committed})
  list(REMOVE_ITEM extra ${generated})
  message(FATAL_ERROR "The committed corpus differs from gen_corpus's output.\n"
                      "Not committed: ${missing}\nNot generated: ${extra}\n"
                      "Run: cmake --build <build> --target fuzz_corpus")
endif()
foreach(file IN LISTS generated)
  file(SHA256 ${SCRATCH}/${file} generated_hash)
  file(SHA256 ${CORPUS}/${file} committed_hash)
  if(NOT generated_hash STREQUAL committed_hash)
    message(FATAL_ERROR "${CORPUS}/${file} differs from gen_corpus's output.\n"
                        "Run: cmake --build <build> --target fuzz_corpus")
  endif()
endforeach()
list(LENGTH generated count)
message(STATUS "The ${count} seeds of ${CORPUS} are gen_corpus's output")
