#!/usr/bin/env bash
# Builds Debian's own SystemC source with POSIX-thread coroutines into PREFIX, for the sanitizer
# build (docs/sanitizers.md): with every SC_THREAD a real thread, AddressSanitizer and
# LeakSanitizer see ordinary thread stacks, so ASan is sound in the parts that run SystemC
# processes. Debian's libsystemc switches QuickThreads stacks with incomplete fiber annotations.
#
#   cmake/systemc_pthreads.sh PREFIX
#
# The source comes from the Debian archive this machine's apt already uses (its deb entries, read
# as deb-src, in a private apt state under PREFIX: the system's apt setup is not touched). Does
# nothing when PREFIX already holds the library. Needs dpkg-dev (setup.sh installs it).
set -euo pipefail
prefix=$(realpath -m "$1")
[ -f "$prefix/lib/libsystemc.so" ] && [ -f "$prefix/lib/pkgconfig/systemc.pc" ] && exit 0
work="$prefix.work"
rm -rf "$work"
mkdir -p "$work/apt/lists/partial" "$work/apt/sources.list.d" "$work/src"

# The system's sources, deb-src instead of deb (deb822 .sources files and one-line .list files).
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] && sed -e 's/^Types:.*/Types: deb-src/' "$f" > "$work/apt/sources.list.d/$(basename "$f")"
done
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
  [ -f "$f" ] && sed -n -e 's/^deb \(.*\)/deb-src \1/p' "$f" >> "$work/apt/sources.list.d/from-lists.list"
done
apt_opts=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$work/apt/sources.list.d"
          -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache" -o "Debug::NoLocking=1")
apt-get "${apt_opts[@]}" -qq update
version=$(dpkg-query -W -f '${source:Version}' libsystemc-dev)
(cd "$work/src" && apt-get "${apt_opts[@]}" -qq source "systemc=$version" > /dev/null)
src=$(find "$work/src" -maxdepth 1 -type d -name 'systemc-*' | head -1)

# -O1 without debug information: a library that only schedules the tests' processes builds in
# half the time (CI's time budget), and reports still name its functions.
cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" -DCMAKE_CXX_STANDARD=17 \
      -DENABLE_PTHREADS=ON -DBUILD_SHARED_LIBS=ON -DCMAKE_INSTALL_PREFIX="$prefix" > "$work/configure.log"
cmake --build "$work/build" -j2 --target systemc > "$work/build.log"
cmake --install "$work/build" > "$work/install.log"

# SystemC's CMake install writes no pkg-config file; the project finds SystemC through one.
mkdir -p "$prefix/lib/pkgconfig"
cat > "$prefix/lib/pkgconfig/systemc.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: SystemC
Description: SystemC $version with POSIX-thread coroutines (built by gpusim's cmake/systemc_pthreads.sh)
Version: 2.3.4
Libs: -L\${libdir} -Wl,-rpath,\${libdir} -lsystemc -pthread
Cflags: -I\${includedir} -pthread
PC
rm -rf "$work"
echo "systemc_pthreads.sh: SystemC with POSIX-thread coroutines in $prefix"
