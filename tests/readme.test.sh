#!/bin/sh
# README.md's knob table is shader/knobs.def's (tools/readme_knobs.sh).
set -u
if BUILD=${BUILD:-build} sh "$(dirname "$0")/../tools/readme_knobs.sh" --check; then
    echo "readme: the knob table is up to date"
else
    exit 1
fi
