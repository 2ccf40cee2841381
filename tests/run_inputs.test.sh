#!/bin/sh
# `ushader run` with textures and captured inputs (issue 18 item 7):
# --inputs-from SCENE renders the scene with PROG in place of its program
# and runs PROG on the inputs it shaded, with the scene's parameters and
# textures, so blur.fp and bloom.fp print real colours, the colours
# render writes; --texture UNIT=FILE.png[,FILTER] binds a PNG.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
problem() { echo "FAIL: $*"; fail=$((fail + 1)); }
if ! command -v python3 > /dev/null; then
    echo "run_inputs: python3 missing (it reads the PNGs): skipped"
    exit 0
fi

# blur.fp and bloom.fp with their scene of bench/suite.list (fog.scn, slot
# ff): not all (0, 0, 0, 1), as they were without a scene's textures, and
# identical on every model
for p in blur bloom; do
    slot=$(awk -v p="programs/$p.fp" '$1 == p { print $2, $3 }' bench/suite.list)
    scene=bench/${slot% *} slot=${slot#* }
    if "$U" run "bench/programs/$p.fp" --inputs-from "$scene" --slot "$slot" \
            --arch all --threads 64 > "$tmp/$p.all" 2> "$tmp/err" &&
        grep -q '^outputs: identical on every model (64 threads)' "$tmp/$p.all" &&
        grep '^thread' "$tmp/$p.all" | grep -qv 'result.color = (0, 0, 0, 1) '; then
        ok
    else
        problem "$p.fp --inputs-from $scene: $(cat "$tmp/err" "$tmp/$p.all")"
    fi
    # the single-thread form runs the window's first thread
    one=$("$U" run "bench/programs/$p.fp" --inputs-from "$scene" --threads 64 |
          sed -n 's/^result.color = //p')
    grep -q "^thread 0: result.color = $one " "$tmp/$p.all" && ok ||
        problem "$p.fp: the one-thread form gives $one, not --arch's thread 0"
done

# The colours are those render shades: fog.scn with bilinear textures (a
# thread samples on its own, without a quad's derivatives, so mipmap levels
# would differ) and the floor alone (no fragment hidden by a later one),
# rendered with PROG in slot ff, has at each captured fragment's pixel the
# colour run prints for it (its RGBA8 rounding).  fragment.position gives
# the pixels: the fragments a scene shades do not depend on the program.
cp bench/scenes/fog.vp bench/scenes/fog.fp "$tmp/"
sed 's/filter trilinear/filter bilinear/; /^draw ball/d' bench/scenes/fog.scn \
    > "$tmp/floor.scn"
printf '!!ARBfp1.0\nMOV result.color, fragment.position;\nEND\n' > "$tmp/pos.fp"
"$U" run "$tmp/pos.fp" --inputs-from "$tmp/floor.scn" --arch scalar \
    --threads 512 --json > "$tmp/pos.json" 2> "$tmp/err" ||
    problem "pos.fp --inputs-from: $(cat "$tmp/err")"
cat > "$tmp/cmp.py" <<'EOF'
import json, math, struct, sys, zlib
def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]
def rgba8(c):   # gfx_fb_rgba8
    c = 0.0 if not c > 0 else 1.0 if c > 1 else c
    return int(math.floor(f32(f32(f32(c) * 255.0) + 0.5)))
def png(path):  # 8-bit RGBA, as gfx_png_encode writes it
    d = open(path, 'rb').read()
    i, idat = 8, b''
    while i < len(d):
        n, = struct.unpack('>I', d[i:i + 4])
        t, body = d[i + 4:i + 8], d[i + 8:i + 8 + n]
        if t == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        elif t == b'IDAT':
            idat += body
        i += 12 + n
    assert depth == 8 and ctype == 6
    raw, s, rows, prev = zlib.decompress(idat), w * 4, [], bytearray(w * 4)
    for y in range(h):
        f, line = raw[y * (s + 1)], bytearray(raw[y * (s + 1) + 1:(y + 1) * (s + 1)])
        for x in range(s):
            a = line[x - 4] if x >= 4 else 0
            b, c = prev[x], prev[x - 4] if x >= 4 else 0
            p = a + b - c
            pred = [0, a, b, (a + b) // 2,
                    a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c)
                    else b if abs(p - b) <= abs(p - c) else c][f]
            line[x] = (line[x] + pred) & 255
        rows.append(line)
        prev = line
    return w, h, rows
pos = json.load(open(sys.argv[1]))['outputs']
col = json.load(open(sys.argv[2]))['outputs']
w, h, rows = png(sys.argv[3])
k, same, coloured = 'result.color', 0, 0
for p, c in zip(pos, col):
    x, y = int(p[k][0]), int(p[k][1])
    same += tuple(rows[h - 1 - y][4 * x:4 * x + 4]) == tuple(rgba8(v) for v in c[k])
    coloured += c[k] != [0, 0, 0, 1]
print(len(col), same, coloured)
EOF
for p in blur bloom; do
    sed "s|^program ff .*|program ff $PWD/bench/programs/$p.fp|" "$tmp/floor.scn" \
        > "$tmp/$p.scn"
    if "$U" render "$tmp/$p.scn" -o "$tmp/$p.png" 2> "$tmp/err" &&
        "$U" run "bench/programs/$p.fp" --inputs-from "$tmp/floor.scn" \
            --arch scalar --threads 512 --json > "$tmp/$p.json" 2>> "$tmp/err"; then
        got=$(python3 "$tmp/cmp.py" "$tmp/pos.json" "$tmp/$p.json" "$tmp/$p.png")
        [ "$got" = "512 512 512" ] && ok ||
            problem "$p.fp: of 512 threads, $got (threads, equal to render's pixel, not (0,0,0,1))"
    else
        problem "$p.fp on the floor scene: $(cat "$tmp/err")"
    fi
done

# --texture: a 4x4 PNG written here; texel (x, y) of row r from the top
# is at s = (x + 0.5) / 4, t = 1 - (r + 0.5) / 4
python3 - "$tmp/tex.png" <<'EOF'
import struct, sys, zlib
def chunk(t, b):
    return struct.pack('>I', len(b)) + t + b + struct.pack('>I', zlib.crc32(t + b) & 0xffffffff)
rows = b''.join(b'\0' + bytes(v for x in range(4) for v in (60 * x, 80 * r, 17, 255))
                for r in range(4))
open(sys.argv[1], 'wb').write(b'\x89PNG\r\n\x1a\n' +
    chunk(b'IHDR', struct.pack('>IIBBBBB', 4, 4, 8, 6, 0, 0, 0)) +
    chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))
EOF
printf '!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[3], 2D;\nEND\n' \
    > "$tmp/tex.fp"
texel() {  # S T FILTER -> the colour
    "$U" run "$tmp/tex.fp" --texture "3=$tmp/tex.png,$3" \
        --attrib "fragment.texcoord[0]=$1,$2" 2> "$tmp/err" |
        sed -n 's/^result.color = //p'
}
# x = 2, r = 1: (120, 80, 17, 255) / 255
want='(0.470588237, 0.313725501, 0.0666666701, 1)'
got=$(texel 0.625 0.625 nearest)
[ "$got" = "$want" ] && ok || problem "--texture nearest: $got, want $want $(cat "$tmp/err")"
got=$(texel 0.625 0.625 trilinear)
[ "$got" = "$want" ] && ok || problem "--texture trilinear at a texel centre: $got $(cat "$tmp/err")"
# bilinear halfway between x = 1 and x = 2 of row 1: red (60 + 120) / 2
got=$(texel 0.5 0.625 bilinear)
python3 -c "import sys; r = float(sys.argv[1].strip('()').split(',')[0]); \
sys.exit(abs(r - 90 / 255) > 1e-6)" "$got" 2> /dev/null && ok ||
    problem "--texture bilinear between two texels: $got"
# without --texture, (0, 0, 0, 1)
got=$("$U" run "$tmp/tex.fp" --attrib 'fragment.texcoord[0]=0.625,0.625' |
      sed -n 's/^result.color = //p')
[ "$got" = '(0, 0, 0, 1)' ] && ok || problem "an unbound unit gives $got"
# on every model, and over a scene's unit 0 (fog.scn's checks texture)
"$U" run "$tmp/tex.fp" --texture "3=$tmp/tex.png,nearest" --arch all \
    --attrib 'fragment.texcoord[0]=0.625,0.625' > "$tmp/all" 2> "$tmp/err" &&
    grep -q "^thread 3: result.color = $want" "$tmp/all" && ok ||
    problem "--texture --arch all: $(cat "$tmp/err" "$tmp/all")"
sed 's/texture\[3\]/texture[0]/' "$tmp/tex.fp" > "$tmp/tex0.fp"
got=$("$U" run "$tmp/tex0.fp" --inputs-from bench/scenes/fog.scn \
      --texture "0=$tmp/tex.png,nearest" --attrib 'fragment.texcoord[0]=0.625,0.625' |
      sed -n 's/^result.color = //p')
[ "$got" = "$want" ] && ok || problem "--texture over a scene's unit: $got"

# errors: position first, exit status as the usage says
expect() {  # STATUS MESSAGE ARGS...
    rc_want=$1 msg=$2
    shift 2
    "$U" run "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ "$rc" -eq "$rc_want" ] && grep -qF -- "$msg" "$tmp/err" &&
        [ ! -s "$tmp/out" ] && ok ||
        problem "run $* -> exit $rc (want $rc_want), stderr: $(cat "$tmp/err") (want: $msg)"
}
printf 'not a png\n' > "$tmp/bad.png"
B=bench/programs/blur.fp
expect 1 "ushader: $tmp/missing.png: error: " "$tmp/tex.fp" --texture "0=$tmp/missing.png"
expect 1 "ushader: $tmp/bad.png: error: " "$tmp/tex.fp" --texture "0=$tmp/bad.png" --arch scalar
expect 2 "unit out of range (0..15)" "$tmp/tex.fp" --texture "16=$tmp/tex.png"
expect 2 "unknown filter 'cubic'" "$tmp/tex.fp" --texture "0=$tmp/tex.png,cubic"
expect 2 "wants UNIT=FILE.png" "$tmp/tex.fp" --texture "$tmp/tex.png"
expect 1 "ushader: $tmp/none.scn: error: " $B --inputs-from "$tmp/none.scn"
expect 1 "fog.scn: error: no program named 'fx' (--slot)" $B --inputs-from bench/scenes/fog.scn --slot fx
expect 1 "fog.scn: error: program 'fv' is a vertex program" $B --inputs-from bench/scenes/fog.scn --slot fv
printf '!!USHADERcp1.0\nGROUP_SIZE 1;\nEND\n' > "$tmp/k.cp"
expect 1 "fog.scn: error: no compute program to replace" "$tmp/k.cp" --inputs-from bench/scenes/fog.scn --arch scalar
printf 'size 8 8\nprogram v %s/bench/scenes/fog.vp\nprogram f %s/bench/scenes/fog.fp\nmesh m plane 1 1\nvp v\nfp f\ntranslate 0 0 100\ndraw m\n' \
    "$PWD" "$PWD" > "$tmp/empty.scn"
expect 1 "empty.scn: error: the scene shades no thread with $B" $B --inputs-from "$tmp/empty.scn"
printf 'size 8 8\nprogram v nowhere.vp\n' > "$tmp/broken.scn"
expect 1 "broken.scn:2:" $B --inputs-from "$tmp/broken.scn"
expect 2 "not with --param" $B --inputs-from bench/scenes/fog.scn --param 'env[0]=1'
expect 2 "--slot names a program of the --inputs-from scene" $B --slot ff

echo "run_inputs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
