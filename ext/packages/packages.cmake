# The packages a release would upload, built by `cmake --build build --target packages` into
# build/packages/, each stamped with PROJECT_VERSION, for this machine (x86-64 Linux) and for the
# other platforms cross-compiled here (platforms/platforms.cmake: Linux arm64, Windows x64):
#   - Debian: libsqlite3-mod-bloom (bloom.so in /usr/lib/MULTIARCH/sqlite3) and
#     libsqlite3-mod-bloom-dev (static library, header, CMake package), made with
#     dpkg-deb and dpkg-shlibdeps (ext/packages/debian/build_deb.sh), for amd64 and arm64;
#   - Python: a wheel of the module sqlite_bloom with bloom.so or bloom.dll inside, one per
#     platform, built offline with Debian's setuptools and wheel (ext/packages/python/build_wheel.sh);
#   - npm: the tarball of `npm pack`, with the extension for every platform built
#     (prebuilds/PLATFORM/), index.js and index.d.ts, and sqlite-bloom/filter, the WebAssembly
#     reader of ext/packages/npm/wasm.cmake, and its page check-names.html
#     (ext/packages/npm/build_npm.sh; its files: docs/install.md);
#   - Windows: a zip of bloom.dll with its README (ext/packages/windows/build_zip.sh).
# An artifact whose tools are missing at configure time is left out, with a message saying what
# to install; its test (tests/packages) is then skipped with that reason.
# Included by the top-level CMakeLists.txt, after the targets bloom and bloom_static.

set(BLOOM_PACKAGES_SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR})
set(BLOOM_PACKAGES_DIR ${PROJECT_BINARY_DIR}/packages)
set(BLOOM_PYTHON3 /usr/bin/python3 CACHE FILEPATH "A Python 3 whose sqlite3 module can load extensions")
find_program(BLOOM_DPKG_DEB dpkg-deb)
find_program(BLOOM_DPKG_SHLIBDEPS dpkg-shlibdeps)
find_program(BLOOM_DPKG dpkg)
# npm packs the npm package: found now, when CMake configures (tests/CMakeLists.txt says more of
# BLOOM_NPM, which the tests look up when they run).
if(BLOOM_NPM MATCHES "-NOTFOUND$")
  unset(BLOOM_NPM CACHE)
endif()
set(BLOOM_NPM npm CACHE STRING "npm for the tests and the npm package: a name looked up on the PATH, or a path")
find_program(bloom_npm_path NAMES ${BLOOM_NPM} NO_CACHE)

# The machine's names for its architecture: Debian's (amd64), its multiarch triplet
# (x86_64-linux-gnu), Node's (x64) and Node's name of the system (linux).
set(BLOOM_DEB_ARCH "")
if(BLOOM_DPKG)
  execute_process(COMMAND ${BLOOM_DPKG} --print-architecture
                  OUTPUT_VARIABLE BLOOM_DEB_ARCH OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
set(BLOOM_DEB_MULTIARCH "${CMAKE_LIBRARY_ARCHITECTURE}")
string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" bloom_processor)
if(bloom_processor MATCHES "^(x86_64|amd64)$")
  set(BLOOM_NPM_CPU x64)
elseif(bloom_processor MATCHES "^(aarch64|arm64)$")
  set(BLOOM_NPM_CPU arm64)
else()
  set(BLOOM_NPM_CPU ${bloom_processor})
endif()
string(TOLOWER "${CMAKE_SYSTEM_NAME}" BLOOM_NPM_OS)

# Debian's layout, installed only by `cmake --install --component` (EXCLUDE_FROM_ALL keeps them
# out of a plain `cmake --install`). The module: Debian's libsqlite3-mod-* packages (spatialite,
# rasterlite2, csvtable) put theirs in the multiarch library directory, and can because each has
# a versioned name or SONAME; sqlite3-pcre puts its unversioned pcre.so in /usr/lib/sqlite3/. An
# unversioned module in a public library directory is a lintian error
# (sharedobject-in-library-directory-missing-soname, "move it to a subdirectory"), so bloom.so
# goes to /usr/lib/MULTIARCH/sqlite3/: multiarch like the first, a directory of SQLite
# modules like the second. The static library, header and CMake package of the -dev package
# go where every -dev package puts them.
set(bloom_deb_libdir lib/${BLOOM_DEB_MULTIARCH})
install(TARGETS bloom LIBRARY DESTINATION ${bloom_deb_libdir}/sqlite3
        COMPONENT debian_module EXCLUDE_FROM_ALL)
install(TARGETS bloom_static EXPORT sqlite_bloom_debian_targets
        ARCHIVE DESTINATION ${bloom_deb_libdir} COMPONENT debian_dev EXCLUDE_FROM_ALL)
install(FILES ${PROJECT_SOURCE_DIR}/ext/sqlite_bloom.h DESTINATION include
        COMPONENT debian_dev EXCLUDE_FROM_ALL)
install(EXPORT sqlite_bloom_debian_targets FILE sqlite_bloom_targets.cmake NAMESPACE sqlite_bloom::
        DESTINATION ${bloom_deb_libdir}/cmake/sqlite_bloom COMPONENT debian_dev EXCLUDE_FROM_ALL)
install(FILES ${PROJECT_BINARY_DIR}/sqlite_bloomConfig.cmake
              ${PROJECT_BINARY_DIR}/sqlite_bloomConfigVersion.cmake
        DESTINATION ${bloom_deb_libdir}/cmake/sqlite_bloom COMPONENT debian_dev EXCLUDE_FROM_ALL)

set(BLOOM_PACKAGE_FILES "")
set(BLOOM_DEB_SKIP_REASON "")
set(BLOOM_WHEEL_SKIP_REASON "")
set(BLOOM_NPM_SKIP_REASON "")

# The other platforms' builds (BLOOM_PLATFORM_NAMES, each with its bloom.so or bloom.dll and
# the names below), cross-compiled in build/platforms/NAME (platforms/platforms.cmake).
include(${BLOOM_PACKAGES_SOURCE_DIR}/platforms/platforms.cmake)

# Debian packages of the module built in BUILD_DIR for Debian architecture DEB_ARCH: adds the
# two .deb files to BLOOM_PACKAGE_FILES, made after DEPENDS, stripped by STRIP.
function(bloom_add_debs build_dir deb_arch multiarch strip)
  set(module ${BLOOM_PACKAGES_DIR}/libsqlite3-mod-bloom_${PROJECT_VERSION}_${deb_arch}.deb)
  set(dev ${BLOOM_PACKAGES_DIR}/libsqlite3-mod-bloom-dev_${PROJECT_VERSION}_${deb_arch}.deb)
  file(GLOB templates CONFIGURE_DEPENDS ${BLOOM_PACKAGES_SOURCE_DIR}/debian/*)
  add_custom_command(
    OUTPUT ${module} ${dev}
    COMMAND sh ${BLOOM_PACKAGES_SOURCE_DIR}/debian/build_deb.sh ${build_dir}
            ${BLOOM_PACKAGES_SOURCE_DIR}/debian ${BLOOM_PACKAGES_DIR} ${PROJECT_VERSION}
            ${deb_arch} ${multiarch} ${PROJECT_SOURCE_DIR} ${strip}
    DEPENDS ${ARGN} ${templates} ${PROJECT_SOURCE_DIR}/ext/sqlite_bloom.h
            ${PROJECT_SOURCE_DIR}/LICENSE
    COMMENT "Debian packages for ${deb_arch}: libsqlite3-mod-bloom and libsqlite3-mod-bloom-dev ${PROJECT_VERSION}"
    VERBATIM)
  set(BLOOM_PACKAGE_FILES ${BLOOM_PACKAGE_FILES} ${module} ${dev} PARENT_SCOPE)
endfunction()

# The Python wheel holding MODULE (bloom.so or bloom.dll), tagged py3-none-PLATFORM: adds it to
# BLOOM_PACKAGE_FILES, made after DEPENDS; sets OUTPUT_VARIABLE to its path.
function(bloom_add_wheel output_variable module platform strip)
  set(wheel ${BLOOM_PACKAGES_DIR}/sqlite_bloom-${PROJECT_VERSION}-py3-none-${platform}.whl)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${BLOOM_PACKAGES_SOURCE_DIR}/python/*)
  add_custom_command(
    OUTPUT ${wheel}
    COMMAND sh ${BLOOM_PACKAGES_SOURCE_DIR}/python/build_wheel.sh ${BLOOM_PYTHON3}
            ${BLOOM_PACKAGES_SOURCE_DIR}/python ${module} ${PROJECT_VERSION}
            ${PROJECT_SOURCE_DIR}/LICENSE ${BLOOM_PACKAGES_DIR} ${platform} ${strip}
    DEPENDS ${ARGN} ${sources} ${PROJECT_SOURCE_DIR}/LICENSE
    COMMENT "Python wheel: sqlite_bloom ${PROJECT_VERSION} for ${platform}"
    VERBATIM)
  set(BLOOM_PACKAGE_FILES ${BLOOM_PACKAGE_FILES} ${wheel} PARENT_SCOPE)
  set(${output_variable} ${wheel} PARENT_SCOPE)
endfunction()

# Debian packages.
set(BLOOM_DEB_MODULE ${BLOOM_PACKAGES_DIR}/libsqlite3-mod-bloom_${PROJECT_VERSION}_${BLOOM_DEB_ARCH}.deb)
set(BLOOM_DEB_DEV ${BLOOM_PACKAGES_DIR}/libsqlite3-mod-bloom-dev_${PROJECT_VERSION}_${BLOOM_DEB_ARCH}.deb)
if(NOT CMAKE_SYSTEM_NAME STREQUAL "Linux" OR NOT BLOOM_DEB_MULTIARCH)
  set(BLOOM_DEB_SKIP_REASON "not a Debian-style Linux build (no multiarch triplet)")
elseif(NOT BLOOM_DPKG_DEB OR NOT BLOOM_DPKG_SHLIBDEPS OR NOT BLOOM_DEB_ARCH)
  set(BLOOM_DEB_SKIP_REASON "dpkg-deb or dpkg-shlibdeps not found (apt-get install dpkg-dev)")
elseif(BLOOM_SANITIZE OR BLOOM_TSAN OR BLOOM_COVERAGE)
  set(BLOOM_DEB_SKIP_REASON "an instrumented build is not one to package")
else()
  bloom_add_debs(${PROJECT_BINARY_DIR} ${BLOOM_DEB_ARCH} ${BLOOM_DEB_MULTIARCH} ${CMAKE_STRIP}
                 bloom bloom_static)
  foreach(platform IN LISTS BLOOM_PLATFORM_NAMES)
    if(BLOOM_PLATFORM_${platform}_DEB_ARCH)
      bloom_add_debs(${BLOOM_PLATFORM_${platform}_DIR} ${BLOOM_PLATFORM_${platform}_DEB_ARCH}
                     ${BLOOM_PLATFORM_${platform}_MULTIARCH} ${BLOOM_PLATFORM_${platform}_STRIP}
                     ${BLOOM_PLATFORM_${platform}_MODULE})
    endif()
  endforeach()
endif()

# Python wheels: built by Debian's Python with its setuptools, wheel and pip, offline; one for
# this machine, and one for each other platform built.
set(BLOOM_WHEEL_TAG "")
if(EXISTS ${BLOOM_PYTHON3})
  execute_process(
    COMMAND ${BLOOM_PYTHON3} -c "import setuptools, wheel, pip, sysconfig; print(sysconfig.get_platform().replace('-', '_').replace('.', '_'))"
    OUTPUT_VARIABLE BLOOM_WHEEL_TAG OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE bloom_wheel_tools)
endif()
set(BLOOM_WHEEL ${BLOOM_PACKAGES_DIR}/sqlite_bloom-${PROJECT_VERSION}-py3-none-${BLOOM_WHEEL_TAG}.whl)
if(NOT EXISTS ${BLOOM_PYTHON3} OR NOT bloom_wheel_tools EQUAL 0)
  set(BLOOM_WHEEL_SKIP_REASON "${BLOOM_PYTHON3} lacks setuptools, wheel or pip (apt-get install python3-setuptools python3-wheel python3-pip)")
elseif(BLOOM_SANITIZE OR BLOOM_TSAN OR BLOOM_COVERAGE)
  set(BLOOM_WHEEL_SKIP_REASON "an instrumented build is not one to package")
else()
  bloom_add_wheel(BLOOM_WHEEL $<TARGET_FILE:bloom> ${BLOOM_WHEEL_TAG} ${CMAKE_STRIP} bloom)
  foreach(platform IN LISTS BLOOM_PLATFORM_NAMES)
    bloom_add_wheel(BLOOM_PLATFORM_${platform}_WHEEL ${BLOOM_PLATFORM_${platform}_MODULE}
                    ${BLOOM_PLATFORM_${platform}_WHEEL_TAG} ${BLOOM_PLATFORM_${platform}_STRIP}
                    ${BLOOM_PLATFORM_${platform}_MODULE})
  endforeach()
endif()

# The Windows zip: bloom.dll, its README and the license, for the sqlite3.exe shell and any
# other Windows program that loads SQLite extensions.
set(BLOOM_WINDOWS_ZIP ${BLOOM_PACKAGES_DIR}/sqlite-bloom-${PROJECT_VERSION}-windows-x64.zip)
if(BLOOM_PLATFORM_windows_x64_MODULE)
  add_custom_command(
    OUTPUT ${BLOOM_WINDOWS_ZIP}
    COMMAND sh ${BLOOM_PACKAGES_SOURCE_DIR}/windows/build_zip.sh ${BLOOM_PLATFORM_windows_x64_MODULE}
            ${BLOOM_PACKAGES_SOURCE_DIR}/windows/README.md ${PROJECT_SOURCE_DIR}/LICENSE
            ${PROJECT_VERSION} ${BLOOM_WINDOWS_ZIP} ${BLOOM_PLATFORM_windows_x64_STRIP}
            ${PROJECT_SOURCE_DIR}
    DEPENDS ${BLOOM_PLATFORM_windows_x64_MODULE} ${BLOOM_PACKAGES_SOURCE_DIR}/windows/README.md
            ${BLOOM_PACKAGES_SOURCE_DIR}/windows/build_zip.sh ${PROJECT_SOURCE_DIR}/LICENSE
    COMMENT "Windows zip: sqlite-bloom ${PROJECT_VERSION}, bloom.dll for Windows x64"
    VERBATIM)
  list(APPEND BLOOM_PACKAGE_FILES ${BLOOM_WINDOWS_ZIP})
endif()

# The WebAssembly reader of sqlite-bloom/filter, in build/wasm/ (BLOOM_WASM_DIR).
include(${BLOOM_PACKAGES_SOURCE_DIR}/npm/wasm.cmake)

# npm package: the tarball of npm pack, which needs no registry.
set(BLOOM_NPM_TARBALL ${BLOOM_PACKAGES_DIR}/sqlite-bloom-${PROJECT_VERSION}.tgz)
if(NOT bloom_npm_path)
  set(BLOOM_NPM_SKIP_REASON "npm (${BLOOM_NPM}) not found when this build directory was configured (install Node.js 20 or later, with npm, then configure again: cmake --preset default)")
elseif(BLOOM_SANITIZE OR BLOOM_TSAN OR BLOOM_COVERAGE)
  set(BLOOM_NPM_SKIP_REASON "an instrumented build is not one to package")
elseif(BLOOM_WASM_SKIP_REASON)
  set(BLOOM_NPM_SKIP_REASON "its sqlite-bloom/filter cannot be built: ${BLOOM_WASM_SKIP_REASON}")
else()
  # Its binaries, each as NODE_PLATFORM:PATH:STRIP: this machine's, then the other platforms'.
  set(binaries "${BLOOM_NPM_OS}-${BLOOM_NPM_CPU}:$<TARGET_FILE:bloom>:${CMAKE_STRIP}")
  set(modules bloom)
  foreach(platform IN LISTS BLOOM_PLATFORM_NAMES)
    list(APPEND binaries "${BLOOM_PLATFORM_${platform}_NPM}:${BLOOM_PLATFORM_${platform}_MODULE}:${BLOOM_PLATFORM_${platform}_STRIP}")
    list(APPEND modules ${BLOOM_PLATFORM_${platform}_MODULE})
  endforeach()
  file(GLOB bloom_npm_sources CONFIGURE_DEPENDS ${BLOOM_PACKAGES_SOURCE_DIR}/npm/*)
  add_custom_command(
    OUTPUT ${BLOOM_NPM_TARBALL}
    COMMAND sh ${BLOOM_PACKAGES_SOURCE_DIR}/npm/build_npm.sh ${bloom_npm_path}
            ${BLOOM_PACKAGES_SOURCE_DIR}/npm ${PROJECT_VERSION} ${PROJECT_SOURCE_DIR}/LICENSE
            ${BLOOM_PACKAGES_DIR} ${BLOOM_WASM_DIR} ${binaries}
    DEPENDS ${modules} bloom_wasm ${bloom_filter_js_outputs} ${bloom_npm_sources}
            ${PROJECT_SOURCE_DIR}/LICENSE
    COMMENT "npm package: sqlite-bloom ${PROJECT_VERSION}"
    VERBATIM)
  list(APPEND BLOOM_PACKAGE_FILES ${BLOOM_NPM_TARBALL})
endif()

foreach(package_and_reason IN ITEMS "the .deb files:BLOOM_DEB_SKIP_REASON"
                                    "the Python wheel:BLOOM_WHEEL_SKIP_REASON"
                                    "the npm package:BLOOM_NPM_SKIP_REASON")
  string(REPLACE ":" ";" package_and_reason "${package_and_reason}")
  list(GET package_and_reason 0 package)
  list(GET package_and_reason 1 reason_variable)
  if(${reason_variable})
    message(STATUS "packages: ${package} left out: ${${reason_variable}}")
  endif()
endforeach()
if(BLOOM_PACKAGE_FILES AND NOT CMAKE_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo|MinSizeRel)$")
  message(STATUS "packages: CMAKE_BUILD_TYPE is '${CMAKE_BUILD_TYPE}', so the packages would hold an "
                 "unoptimized bloom.so: configure with --preset default, or -DCMAKE_BUILD_TYPE=Release")
endif()
add_custom_target(packages DEPENDS ${BLOOM_PACKAGE_FILES})

if(BUILD_TESTING)
  add_subdirectory(${PROJECT_SOURCE_DIR}/tests/packages ${PROJECT_BINARY_DIR}/tests/packages)
  add_subdirectory(${PROJECT_SOURCE_DIR}/tests/wasm ${PROJECT_BINARY_DIR}/tests/wasm)
  add_subdirectory(${PROJECT_SOURCE_DIR}/tests/platforms ${PROJECT_BINARY_DIR}/tests/platforms)
endif()
