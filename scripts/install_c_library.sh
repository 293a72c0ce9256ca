#!/bin/sh
# Installs the C API into PREFIX: include/poise.h, lib/libpoise.so{,.API}, lib/libpoise.a,
# lib/pkgconfig/poise.pc and lib/cmake/Poise/PoiseConfig{,Version}.cmake; and, when it was
# built, the readers' library (include/poise_readers.h, lib/libpoise-readers.so{,.0}). The
# pkg-config and CMake files locate the prefix from their own place, so the tree can be moved
# (the release tarball of `make dist` is such a tree).
# Usage: scripts/install_c_library.sh PREFIX [LIBDIR_BUILT]   (libraries from build_c_library.sh)
set -eu
PREFIX=${1:?usage: install_c_library.sh PREFIX [BUILT]}
BUILT=${2:-.build/c-library}
VERSION=$(sed -n 's/^#define POISE_VERSION "\(.*\)".*/\1/p' include/poise.h)
API=$(sed -n 's/^#define POISE_API_VERSION \([0-9][0-9]*\).*/\1/p' include/poise.h)
SONAME=libpoise.so.$API
[ -f "$BUILT/$SONAME" ] || { echo "no $BUILT/$SONAME: run scripts/build_c_library.sh first" >&2; exit 1; }
install -d "$PREFIX/include" "$PREFIX/lib/pkgconfig" "$PREFIX/lib/cmake/Poise"
install -m 644 include/poise.h "$PREFIX/include/poise.h"
install -m 755 "$BUILT/$SONAME" "$PREFIX/lib/$SONAME"
ln -sf $SONAME "$PREFIX/lib/libpoise.so"
install -m 644 "$BUILT/libpoise.a" "$PREFIX/lib/libpoise.a"
# The readers' library (scripts/build_readers_library.sh), when it was built.
if [ -f "$BUILT/libpoise-readers.so.0" ]; then
    install -m 644 include/poise_readers.h "$PREFIX/include/poise_readers.h"
    install -m 755 "$BUILT/libpoise-readers.so.0" "$PREFIX/lib/libpoise-readers.so.0"
    ln -sf libpoise-readers.so.0 "$PREFIX/lib/libpoise-readers.so"
fi

cat > "$PREFIX/lib/pkgconfig/poise.pc" <<PC
prefix=\${pcfiledir}/../..
includedir=\${prefix}/include
libdir=\${prefix}/lib

Name: poise
Description: Motion-sensor signal processing (filters, VQF fusion, tilt input) with a C API
Version: $VERSION
Cflags: -I\${includedir}
Libs: -L\${libdir} -lpoise
Libs.private: -lstdc++ -lm -ldl -lpthread
PC

cat > "$PREFIX/lib/cmake/Poise/PoiseConfig.cmake" <<CMAKE
# find_package(Poise) — imported targets:
#   Poise::poise         the shared library (Swift runtime inside)
#   Poise::poise_static  the static library (links the C++ runtime, libm, libdl, pthreads)
get_filename_component(_poise_prefix "\${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET Poise::poise)
  add_library(Poise::poise SHARED IMPORTED)
  set_target_properties(Poise::poise PROPERTIES
    IMPORTED_LOCATION "\${_poise_prefix}/lib/$SONAME"
    IMPORTED_SONAME "$SONAME"
    INTERFACE_INCLUDE_DIRECTORIES "\${_poise_prefix}/include")
  add_library(Poise::poise_static STATIC IMPORTED)
  set_target_properties(Poise::poise_static PROPERTIES
    IMPORTED_LOCATION "\${_poise_prefix}/lib/libpoise.a"
    INTERFACE_INCLUDE_DIRECTORIES "\${_poise_prefix}/include"
    INTERFACE_LINK_LIBRARIES "stdc++;m;dl;pthread")
endif()
set(Poise_API_VERSION $API)
set(Poise_INCLUDE_DIRS "\${_poise_prefix}/include")
set(Poise_LIBRARIES Poise::poise)
unset(_poise_prefix)
CMAKE

# Compatible: the same version, or an older one of the same API. The API is the major version
# from 1.0 on; before it, the minor (0.MINOR) is: 0.9.x satisfies a request for 0.9 and refuses
# 0.8 and 0.10, 1.4 satisfies 1.2 and refuses 2.0 and 1.5.
cat > "$PREFIX/lib/cmake/Poise/PoiseConfigVersion.cmake" <<CMAKE
set(PACKAGE_VERSION "$VERSION")
set(PACKAGE_VERSION_COMPATIBLE FALSE)
if(PACKAGE_FIND_VERSION VERSION_LESS_EQUAL PACKAGE_VERSION)
  if(PACKAGE_FIND_VERSION_MAJOR STREQUAL "$(echo "$VERSION" | cut -d. -f1)")
    if(NOT PACKAGE_FIND_VERSION_MAJOR STREQUAL "0" OR PACKAGE_FIND_VERSION_MINOR STREQUAL "$(echo "$VERSION" | cut -d. -f2)")
      set(PACKAGE_VERSION_COMPATIBLE TRUE)
    endif()
  endif()
endif()
if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
  set(PACKAGE_VERSION_EXACT TRUE)
endif()
CMAKE
echo "installed the Poise C library $VERSION into $PREFIX"
