# The WebAssembly reader of the npm package's sqlite-bloom/filter, into build/wasm/ (part of
# the default build when its tools are there):
#   - bloom_filter.wasm: the core (BLOOM_CORE_SOURCES), ext/wasm/wasm_format.c and ext/wasm/wasm_reader.c,
#     built by clang for wasm32-wasi against wasi-libc, linked by lld (wasm-ld), then made smaller
#     by binaryen's wasm-opt where it is installed; xxhash.h compiled in, as in bloom.so. No
#     import, no allocation: 64 KB at most (tests/wasm checks it).
#   - filter.cjs, filter.mjs, filter.d.cts, filter.d.mts and check-names.html, by
#     build_filter_js.sh, with the module inside in base64.
# Every file is compiled with snprintf and vsnprintf named as ext/wasm/wasm_format.h's, so that the
# module links none of the C library's stdio (whose printf would take 12 KB and import WASI's
# fd_write). Left out, saying why (BLOOM_WASM_SKIP_REASON), when clang cannot build and link a
# wasm32-wasi module; and in instrumented builds, as the packages are. Included by packages.cmake.
# Debian: apt-get install clang-14 lld-14 wasi-libc libclang-rt-14-dev-wasm32 binaryen.

set(BLOOM_WASM_DIR ${PROJECT_BINARY_DIR}/wasm)
set(BLOOM_WASM ${BLOOM_WASM_DIR}/bloom_filter.wasm)
set(BLOOM_WASM_SKIP_REASON "")
set(bloom_wasm_install "apt-get install clang-14 lld-14 wasi-libc libclang-rt-14-dev-wasm32")
find_program(BLOOM_WASM_CLANG NAMES clang-14 clang DOC "A clang that targets wasm32-wasi")
find_program(BLOOM_WASM_OPT wasm-opt DOC "binaryen's wasm-opt, to make the reader smaller")

if(BLOOM_SANITIZE OR BLOOM_TSAN OR BLOOM_COVERAGE)
  set(BLOOM_WASM_SKIP_REASON "an instrumented build is not one to package")
elseif(NOT BLOOM_WASM_CLANG)
  set(BLOOM_WASM_SKIP_REASON "no clang to build the WebAssembly reader (${bloom_wasm_install})")
else()
  # What the reader needs of the toolchain: wasi-libc's headers, string.h and libm, compiler-rt's
  # 128-bit multiply (hash_math.h), bulk memory and wasm-ld, tried on a small module. Linked
  # without -O, as below: clang then runs no wasm-opt of its own.
  set(bloom_wasm_probe ${BLOOM_WASM_DIR}/probe)
  file(MAKE_DIRECTORY ${bloom_wasm_probe})
  file(WRITE ${bloom_wasm_probe}/probe.c
       "#include <math.h>\n#include <stdint.h>\n#include <string.h>\n"
       "__attribute__((export_name(\"f\"))) double f(double x, uint64_t a, uint64_t b) {\n"
       "    unsigned __int128 p = (unsigned __int128)a * b;\n    char s[8];\n"
       "    memset(s, (int)x, sizeof s);\n    return pow(x, (double)(uint64_t)(p >> 64)) + s[3];\n}\n")
  execute_process(
    COMMAND ${BLOOM_WASM_CLANG} --target=wasm32-wasi -mbulk-memory -nostartfiles -Wl,--no-entry
            -o probe.wasm probe.c
    WORKING_DIRECTORY ${bloom_wasm_probe}
    RESULT_VARIABLE bloom_wasm_probe_result ERROR_VARIABLE bloom_wasm_probe_error
    OUTPUT_QUIET)
  if(NOT bloom_wasm_probe_result EQUAL 0)
    string(REGEX MATCH "[^\n]*error[^\n]*" bloom_wasm_probe_error "${bloom_wasm_probe_error}")
    string(REGEX REPLACE "['\"]" "" bloom_wasm_probe_error "${bloom_wasm_probe_error}")
    set(BLOOM_WASM_SKIP_REASON
        "${BLOOM_WASM_CLANG} cannot build a wasm32-wasi module (${bloom_wasm_probe_error}): ${bloom_wasm_install}")
  endif()
endif()

if(NOT BLOOM_WASM_SKIP_REASON)
  set(bloom_wasm_sources ${BLOOM_CORE_SOURCES} ${PROJECT_SOURCE_DIR}/ext/wasm/wasm_format.c
                         ${PROJECT_SOURCE_DIR}/ext/wasm/wasm_reader.c)
  set(bloom_wasm_objects "")
  foreach(source IN LISTS bloom_wasm_sources)
    get_filename_component(name ${source} NAME_WE)
    list(APPEND bloom_wasm_objects ${BLOOM_WASM_DIR}/objects/${name}.o)
  endforeach()
  file(GLOB_RECURSE bloom_wasm_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/ext/*.h)
  list(TRANSFORM BLOOM_INCLUDE_DIRS PREPEND -I OUTPUT_VARIABLE bloom_wasm_includes)
  # xxhash.h alone, not the rest of its directory (the system's headers).
  configure_file(${XXHASH_INCLUDE_DIR}/xxhash.h ${BLOOM_WASM_DIR}/include/xxhash.h COPYONLY)
  set(bloom_wasm_warnings -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes)
  if(BLOOM_WERROR)
    list(APPEND bloom_wasm_warnings -Werror)
  endif()
  # The stack: 32 KB below the data (a stack overflow traps instead of writing over the data).
  set(bloom_wasm_link -Wl,--no-entry -Wl,--gc-sections -Wl,--strip-all -Wl,-z,stack-size=32768
                      -Wl,--stack-first)
  set(bloom_wasm_shrink "")
  if(BLOOM_WASM_OPT)
    set(bloom_wasm_shrink COMMAND ${BLOOM_WASM_OPT} -Oz --enable-bulk-memory ${BLOOM_WASM} -o ${BLOOM_WASM})
  else()
    message(STATUS "wasm: binaryen's wasm-opt not found: the WebAssembly reader is left larger "
                   "(apt-get install binaryen)")
  endif()
  file(MAKE_DIRECTORY ${BLOOM_WASM_DIR}/objects)
  add_custom_command(
    OUTPUT ${BLOOM_WASM}
    COMMAND ${BLOOM_WASM_CLANG} --target=wasm32-wasi -std=c11 -Oz -flto -mbulk-memory -DNDEBUG
            -fvisibility=hidden -Dsnprintf=wasm_format_snprintf -Dvsnprintf=wasm_format_vsnprintf
            ${bloom_wasm_warnings} ${bloom_wasm_includes} -isystem ${BLOOM_WASM_DIR}/include
            -c ${bloom_wasm_sources}
    COMMAND ${BLOOM_WASM_CLANG} --target=wasm32-wasi -mbulk-memory -nostartfiles ${bloom_wasm_link}
            -o ${BLOOM_WASM} ${bloom_wasm_objects}
    ${bloom_wasm_shrink}
    WORKING_DIRECTORY ${BLOOM_WASM_DIR}/objects
    DEPENDS ${bloom_wasm_sources} ${bloom_wasm_headers} ${BLOOM_WASM_DIR}/include/xxhash.h
    COMMENT "WebAssembly reader: bloom_filter.wasm"
    VERBATIM)
  set(bloom_filter_js_outputs ${BLOOM_WASM_DIR}/filter.cjs ${BLOOM_WASM_DIR}/filter.mjs
                              ${BLOOM_WASM_DIR}/filter.d.cts ${BLOOM_WASM_DIR}/filter.d.mts
                              ${BLOOM_WASM_DIR}/check-names.html)
  set(bloom_npm_dir ${PROJECT_SOURCE_DIR}/ext/packages/npm)
  add_custom_command(
    OUTPUT ${bloom_filter_js_outputs}
    COMMAND sh ${bloom_npm_dir}/build_filter_js.sh ${BLOOM_WASM} ${bloom_npm_dir} ${BLOOM_WASM_DIR}
    DEPENDS ${BLOOM_WASM} ${bloom_npm_dir}/build_filter_js.sh ${bloom_npm_dir}/filter_reader.js
            ${bloom_npm_dir}/filter.d.ts ${bloom_npm_dir}/check-names.html
    COMMENT "WebAssembly reader: sqlite-bloom/filter and check-names.html"
    VERBATIM)
  add_custom_target(bloom_wasm ALL DEPENDS ${bloom_filter_js_outputs})
else()
  message(STATUS "wasm: the WebAssembly reader (sqlite-bloom/filter) left out: ${BLOOM_WASM_SKIP_REASON}")
endif()
