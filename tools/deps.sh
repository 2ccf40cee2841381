#!/bin/sh
# Install the Debian packages ushader needs (`make deps`).
# libosmesa6-dev is for bench/softpipe.bench.sh only (Mesa softpipe side);
# glslang-tools/spirv-tools compile GLSL to SPIR-V, spirv-headers gives its enums;
# libjansson-dev writes and reads every JSON output (suite/provenance.h);
# nettle-dev (libnettle8 at run time) gives the SPIR-V cache its SHA-256 (glsl/spv_cache.c);
# time (/usr/bin/time) measures peak RSS in tests/budget.test.sh;
# clang-14, llvm-14 (opt-14) and llvm-spirv-14 compile OpenCL C kernels (docs/OPENCL.md);
# parallel (GNU parallel), slurm-wlm and munge run sweeps past one machine and
# their tests (a one-node Slurm cluster the test starts itself); chromium (headless)
# loads the HTML pages (piglit summary, report.html) in the tests; minetest-data
# ships the GLSL shaders of the second real-shader corpus (bench/minetest/).
#   --if-missing   do nothing, quietly, when every package is present
set -eu

PACKAGES="build-essential pkg-config libmpfr-dev libgmp-dev check libpng-dev \
libinih-dev libjansson-dev nettle-dev gnuplot-nox piglit glmark2-data clang libclang-rt-14-dev \
libosmesa6-dev glslang-tools spirv-tools spirv-headers time clang-14 llvm-14 llvm-spirv-14 \
parallel slurm-wlm munge chromium minetest-data"

missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done

if [ -z "$missing" ]; then
    [ "${1:-}" = "--if-missing" ] || echo "deps: all Debian packages present"
    exit 0
fi

echo "deps: installing Debian packages:$missing"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $missing
