#!/bin/sh
# The batched structure-of-arrays executor (shader/interp_soa.c) in the
# functional renderer: every bench/scenes/*.scn and the softpipe bench's
# scene rendered with the reference alone (USHADER_SOA=0), the SoA
# executor's x86-64 baseline build, its AVX2 build and its AVX-512 build
# (the CPU's best when it has not these) must give the same pixels, with the SFU model's
# math and with --exact-math: the fragments and, since the vertex stage
# runs in the executor's rows too (gfx/pipeline.c vertex_rows), the
# vertices.  tests/unit/test_interp_soa.c checks the
# executor itself on random programs.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass=0 fail=0
for scn in bench/scenes/*.scn bench/softpipe/fullscreen.scn; do
    name=$(basename "$scn" .scn)
    for math in "" --exact-math; do
        ref=$(USHADER_SOA=0 "$U" render "$scn" --size 96x96 $math --hash 2>"$tmp/err") || {
            echo "FAIL: $name $math: render failed: $(cat "$tmp/err")"
            fail=$((fail + 1))
            continue
        }
        for isa in baseline avx2 avx512; do
            h=$(USHADER_SOA=$isa "$U" render "$scn" --size 96x96 $math --hash 2>"$tmp/err")
            if [ "$h" = "$ref" ]; then
                pass=$((pass + 1))
            else
                echo "FAIL: $name $math $isa: hash $h, reference $ref $(cat "$tmp/err")"
                fail=$((fail + 1))
            fi
        done
    done
done
echo "soa: $pass passed, $fail failed"
[ "$fail" = 0 ]
