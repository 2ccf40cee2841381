#!/bin/sh
# The compute suite with its bench-only sizes (GeMM 128x128 and 256x256;
# docs/COMPUTE_SUITE.md) on every model and SIMT preset, every output checked
# against its C reference.  `make compute-suite` runs the same.
set -u
BUILD=${BUILD:-build}
COMPUTE_SUITE=all BUILD=$BUILD sh tests/compute_suite.test.sh
