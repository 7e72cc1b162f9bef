# The extension for the platforms other than this machine's, cross-compiled on it: each in a
# build directory of its own, build/platforms/NAME, by cross_build.sh with the toolchain file
# NAME.cmake here, with the same build type and warnings as this build. packages.cmake makes
# their packages (the arm64 .deb pair, a wheel each, the Windows zip, their binaries in the npm
# package), and the tests of tests/platforms run the SQL suite on each, under qemu-aarch64 and
# wine.
#   linux_arm64  bloom.so for 64-bit Arm Linux with glibc: gcc-aarch64-linux-gnu
#   windows_x64  bloom.dll for 64-bit Windows: gcc-mingw-w64-x86-64
# For each platform NAME built, in BLOOM_PLATFORM_NAMES: BLOOM_PLATFORM_NAME_DIR (its build
# directory), _MODULE (bloom.so or bloom.dll there), _STRIP (its strip), _WHEEL_TAG (the
# platform of its wheel's tag), _NPM (process.platform-process.arch of Node.js), _TITLE (for
# people), and on Linux _DEB_ARCH and _MULTIARCH when its .deb files can be made. A platform
# whose compiler is missing when CMake configures is left out, saying what to install, in
# BLOOM_PLATFORM_NAME_SKIP_REASON. Off (BLOOM_PLATFORMS) in the platforms' own builds, and in
# instrumented builds, which are not packaged.
option(BLOOM_PLATFORMS "Cross-compile the other platforms' builds and packages (ext/packages/platforms)" ON)
set(BLOOM_PLATFORM_NAMES "")
set(BLOOM_PLATFORM_ALL linux_arm64 windows_x64)

set(BLOOM_PLATFORM_linux_arm64_TITLE "Linux arm64 (aarch64, glibc)")
set(BLOOM_PLATFORM_linux_arm64_PREFIX aarch64-linux-gnu-)
set(BLOOM_PLATFORM_linux_arm64_FILE bloom.so)
set(BLOOM_PLATFORM_linux_arm64_TARGETS bloom bloom_static)
set(BLOOM_PLATFORM_linux_arm64_WHEEL_TAG linux_aarch64)
set(BLOOM_PLATFORM_linux_arm64_NPM linux-arm64)
set(BLOOM_PLATFORM_linux_arm64_INSTALL "apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross")
set(BLOOM_PLATFORM_windows_x64_TITLE "Windows x64")
set(BLOOM_PLATFORM_windows_x64_PREFIX x86_64-w64-mingw32-)
set(BLOOM_PLATFORM_windows_x64_FILE bloom.dll)
set(BLOOM_PLATFORM_windows_x64_TARGETS bloom)
set(BLOOM_PLATFORM_windows_x64_WHEEL_TAG win_amd64)
set(BLOOM_PLATFORM_windows_x64_NPM win32-x64)
set(BLOOM_PLATFORM_windows_x64_INSTALL "apt-get install gcc-mingw-w64-x86-64")

file(GLOB_RECURSE bloom_platform_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/ext/*.c
     ${PROJECT_SOURCE_DIR}/ext/*.h)
foreach(platform IN LISTS BLOOM_PLATFORM_ALL)
  set(prefix ${BLOOM_PLATFORM_${platform}_PREFIX})
  find_program(BLOOM_PLATFORM_${platform}_CC ${prefix}gcc)
  if(NOT BLOOM_PLATFORMS)
    set(BLOOM_PLATFORM_${platform}_SKIP_REASON "BLOOM_PLATFORMS is OFF")
  elseif(BLOOM_SANITIZE OR BLOOM_TSAN OR BLOOM_COVERAGE)
    set(BLOOM_PLATFORM_${platform}_SKIP_REASON "an instrumented build is not one to package")
  elseif(NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
    set(BLOOM_PLATFORM_${platform}_SKIP_REASON "cross-compiled only from Linux")
  elseif(NOT BLOOM_PLATFORM_${platform}_CC)
    set(BLOOM_PLATFORM_${platform}_SKIP_REASON
        "${prefix}gcc not found when this build directory was configured (${BLOOM_PLATFORM_${platform}_INSTALL}, then configure again)")
  else()
    set(dir ${PROJECT_BINARY_DIR}/platforms/${platform})
    set(module ${dir}/${BLOOM_PLATFORM_${platform}_FILE})
    set(BLOOM_PLATFORM_${platform}_DIR ${dir})
    set(BLOOM_PLATFORM_${platform}_MODULE ${module})
    set(BLOOM_PLATFORM_${platform}_STRIP ${prefix}strip)
    list(APPEND BLOOM_PLATFORM_NAMES ${platform})
    add_custom_command(
      OUTPUT ${module}
      COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/cross_build.sh ${PROJECT_SOURCE_DIR} ${dir}
              ${CMAKE_CURRENT_LIST_DIR}/${platform}.cmake ${CMAKE_BUILD_TYPE} ${BLOOM_WERROR}
              "${BLOOM_PLATFORM_${platform}_TARGETS}" "${SQLITE3EXT_INCLUDE_DIR};${XXHASH_INCLUDE_DIR}"
      COMMAND ${CMAKE_COMMAND} -E touch ${module}
      DEPENDS ${bloom_platform_sources} ${PROJECT_SOURCE_DIR}/CMakeLists.txt
              ${CMAKE_CURRENT_LIST_DIR}/${platform}.cmake ${CMAKE_CURRENT_LIST_DIR}/cross_build.sh
      COMMENT "${BLOOM_PLATFORM_${platform}_FILE} for ${BLOOM_PLATFORM_${platform}_TITLE}, cross-compiled in ${dir}"
      VERBATIM)
  endif()
endforeach()

# The arm64 .deb files: dpkg-shlibdeps reads the dependencies of bloom.so off the dpkg database
# of the arm64 C library, which dpkg --add-architecture arm64 lets apt install.
if(BLOOM_PLATFORM_linux_arm64_DIR AND BLOOM_DPKG)
  execute_process(COMMAND ${BLOOM_DPKG} -s libc6:arm64 RESULT_VARIABLE bloom_arm64_libc
                  OUTPUT_QUIET ERROR_QUIET)
  if(bloom_arm64_libc EQUAL 0)
    set(BLOOM_PLATFORM_linux_arm64_DEB_ARCH arm64)
    set(BLOOM_PLATFORM_linux_arm64_MULTIARCH aarch64-linux-gnu)
  else()
    set(BLOOM_PLATFORM_linux_arm64_DEB_SKIP_REASON
        "libc6:arm64 is not installed, whose dpkg database dpkg-shlibdeps reads (dpkg --add-architecture arm64; apt-get update; apt-get install libc6:arm64)")
    message(STATUS "packages: the arm64 .deb files left out: ${BLOOM_PLATFORM_linux_arm64_DEB_SKIP_REASON}")
  endif()
endif()
foreach(platform IN LISTS BLOOM_PLATFORM_ALL)
  if(BLOOM_PLATFORM_${platform}_SKIP_REASON AND BLOOM_PLATFORMS)
    message(STATUS "packages: ${BLOOM_PLATFORM_${platform}_TITLE} left out: ${BLOOM_PLATFORM_${platform}_SKIP_REASON}")
  endif()
endforeach()
