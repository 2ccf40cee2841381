#!/bin/sh
# The preshader (glsl/pass_hoist.c, docs/GLSL.md "Preshader") on three of
# glmark2's ideas-* vertex shaders, whose gl_ProjectionMatrix *
# gl_ModelViewMatrix * v does the 4x4 by 4x4 product per vertex without
# it.  For each: `ushader glsl` prints a PRESHADER block, the per-thread
# count is that of --no-preshader less at least the 16 instructions of
# the product, the text assembles back to itself, and the pair's scene
# renders the same image (hash) from the GLSL, from the text with the
# preshader and from the text without it, on the interpreter and on the
# scalar and simd4 models.  Skipped (exit 0) without glmark2-data.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
cd "$(dirname "$0")/.."
DATA=/usr/share/glmark2
if [ ! -d "$DATA/shaders" ]; then
    echo "preshader: SKIP: glmark2-data is not installed ($DATA)"
    exit 0
fi
G=bench/glmark2/gen
mkdir -p "$G"
"$BUILD/tools/glmark2_gen" bench/glmark2/pairs.txt "$DATA/shaders" "$G" \
    > /dev/null || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
abs=$(pwd)
fails=0
fail() { echo "preshader: FAIL: $*"; fails=$((fails + 1)); }

# per_thread FILE / in_block FILE: instructions outside / inside the block
per_thread() {
    awk '/^PRESHADER;$/ { b = 1; next } /^ENDPRESHADER;$/ { b = 0; next }
         !b && /;$/ && !/^(TEMP|PARAM|OPTION|ATTRIB|OUTPUT|ADDRESS|ALIAS) / { n++ }
         END { print n + 0 }' "$1"
}
in_block() {
    awk '/^PRESHADER;$/ { b = 1; next } /^ENDPRESHADER;$/ { b = 0; next }
         b && /;$/ { n++ } END { print n + 0 }' "$1"
}

total_pre=0 total_no=0 total_block=0
for p in ideas-logo-flat ideas-paper ideas-text; do
    "$U" glsl "$G/$p.vert" > "$tmp/$p.pre.vp" || { fail "$p: glsl"; continue; }
    "$U" glsl --no-preshader "$G/$p.vert" > "$tmp/$p.no.vp" ||
        { fail "$p: glsl --no-preshader"; continue; }
    grep -q '^PRESHADER;$' "$tmp/$p.pre.vp" || fail "$p: no PRESHADER block"
    ! grep -q 'PRESHADER' "$tmp/$p.no.vp" ||
        fail "$p: --no-preshader printed a PRESHADER block"
    n=$(per_thread "$tmp/$p.pre.vp") no=$(per_thread "$tmp/$p.no.vp")
    k=$(in_block "$tmp/$p.pre.vp")
    [ $((no - n)) -ge 16 ] ||
        fail "$p: per-thread $n with the preshader, $no without: not 16 fewer"
    [ "$k" -ge 16 ] || fail "$p: a preshader of $k instructions"
    total_pre=$((total_pre + n)) total_no=$((total_no + no))
    total_block=$((total_block + k))
    # the text reads back as itself
    grep -v '^#' "$tmp/$p.pre.vp" > "$tmp/a.vp"
    "$U" asm -S "$tmp/a.vp" -o "$tmp/b.vp" 2> "$tmp/err" ||
        fail "$p: the text does not assemble: $(head -n 1 "$tmp/err")"
    cmp -s "$tmp/a.vp" "$tmp/b.vp" || fail "$p: asm -S does not give the text back"
    # the scene from the GLSL, and with either text as its vertex program
    for kind in glsl pre no; do
        if [ $kind = glsl ]; then
            v="$abs/$G/$p.vert"
        else
            v="$tmp/$p.$kind.vp"
        fi
        sed -e "s|^program v gen/.*|program v $v|" \
            -e "s|^program f gen/|program f $abs/$G/|" \
            -e "s|^mesh m obj \([^/]\)|mesh m obj $abs/bench/glmark2/\1|" \
            "bench/glmark2/$p.scn" > "$tmp/$p.$kind.scn"
    done
    ref=$("$U" render "$tmp/$p.glsl.scn" -o "$tmp/img.png" --hash 2> "$tmp/err") ||
        { fail "$p: render: $(head -n 1 "$tmp/err")"; continue; }
    for kind in pre no; do
        for arch in "" scalar simd4; do
            h=$("$U" render "$tmp/$p.$kind.scn" -o "$tmp/img.png" --hash \
                ${arch:+--arch $arch} 2> "$tmp/err") ||
                { fail "$p $kind $arch: render: $(head -n 1 "$tmp/err")"; continue; }
            [ "$h" = "$ref" ] ||
                fail "$p ($kind${arch:+, $arch}): image $h, the GLSL's $ref"
        done
    done
done
echo "preshader: 3 ideas-* vertex shaders: per-thread $total_pre instructions" \
     "with the preshader ($total_block in it, once per draw), $total_no" \
     "without; images identical, $fails failures"
[ "$fails" -eq 0 ]
