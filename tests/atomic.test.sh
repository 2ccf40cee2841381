#!/bin/sh
# Atomic output (issue 9): every command that writes a file goes through
# cli_write_file (cli/io.c: temporary file + rename), so a failure leaves
# neither the output nor a temporary file, and never touches an output
# that was already there.  For each writer (render -o, asm -o, asm
# --target T -o, sfu sweep --csv) the test makes it fail:
#   - on invalid input (before anything is written),
#   - with a directory as the output path,
#   - with an output path under a regular file (ENOTDIR),
#   - part-way through writing: RLIMIT_FSIZE (ulimit -f) with SIGXFSZ
#     ignored, so the write itself fails with EFBIG,
# and checks the exit status (1 or 2, "error:" on stderr), that no file or
# temporary file appeared, and that a pre-existing output kept its bytes.
# A successful write replaces the old file, with the mode open(2) would
# give (0666 & ~umask), and leaves no temporary file.
set -u
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
ROOT=$(pwd)
U="$ROOT/$BUILD/ushader"
tmp=$(mktemp -d)
export U tmp ROOT   # the part-way cases run the command in a child shell
trap 'rm -rf "$tmp"' EXIT
umask 022

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() {
    echo "FAIL: $*"
    sed -n 1,5p "$tmp/err" 2>/dev/null
    fail=$((fail + 1))
}

# Temporary files of cli_write_file are OUT.tmpXXXXXX next to OUT.
leftovers() { ls -a "$1" | grep -c '\.tmp' ; }

# fails WHAT DIR CMD...: exit 1 or 2 with "error:", no temporary in DIR.
fails() {
    what=$1 dir=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    if [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then
        bad "$what: exit $rc, want 1 or 2"
    elif ! grep -q "error:" "$tmp/err"; then
        bad "$what: no 'error:' on stderr"
    elif [ -n "${WANT:-}" ] && ! grep -qF "$WANT" "$tmp/err"; then
        bad "$what: stderr lacks '$WANT'"
    elif [ "$(leftovers "$dir")" -ne 0 ]; then
        bad "$what: temporary file left in $dir: $(ls -a "$dir" | grep '\.tmp')"
    else
        ok
    fi
}

# The size unit of `ulimit -f` differs between shells (512 or 1024 bytes).
fsize_unit=$( (trap '' XFSZ; ulimit -f 1; head -c 4096 /dev/zero >"$tmp/probe") 2>/dev/null
              wc -c <"$tmp/probe")
rm -f "$tmp/probe"

# check_writer NAME EXT BIG_MIN GOOD BAD: GOOD and BAD are shell snippets
# with OUT standing for the output path; GOOD writes at least BIG_MIN bytes.
check_writer() {
    name=$1 ext=$2 big=$3 good=$4 badcmd=$5
    d="$tmp/$name"
    mkdir -p "$d"
    run() { OUT=$1; eval "$2"; }

    # Invalid input: no output, no temporary.
    fails "$name: invalid input" "$d" run "$d/out.$ext" "$badcmd"
    [ -e "$d/out.$ext" ] && bad "$name: invalid input created the output"

    # A pre-existing output survives a failure untouched.
    printf 'previous contents\n' >"$d/keep.$ext"
    fails "$name: invalid input over an existing file" "$d" run "$d/keep.$ext" "$badcmd"
    if [ "$(cat "$d/keep.$ext")" = "previous contents" ]; then ok; else
        bad "$name: existing output changed by a failed run"; fi

    # The output path is a directory.
    mkdir "$d/isdir.$ext"
    fails "$name: output is a directory" "$d" run "$d/isdir.$ext" "$good"
    if [ -d "$d/isdir.$ext" ] && [ -z "$(ls -A "$d/isdir.$ext")" ]; then ok; else
        bad "$name: the directory was replaced or filled"; fi

    # The output's directory is a regular file.
    printf x >"$d/notdir"
    fails "$name: parent is not a directory" "$d" run "$d/notdir/out.$ext" "$good"

    # Part-way: the write fails with EFBIG after the temporary file exists.
    if [ "$big" -gt "$fsize_unit" ]; then
        printf 'previous contents\n' >"$d/part.$ext"
        WANT="File too large"
        fails "$name: write fails part-way" "$d" \
            sh -c "trap '' XFSZ; ulimit -f 1; OUT=\$1; eval \"\$2\"" sh \
            "$d/part.$ext" "$good"
        if [ "$(cat "$d/part.$ext")" = "previous contents" ]; then ok; else
            bad "$name: a part-way failure changed the existing output"; fi
        fails "$name: write fails part-way, no previous file" "$d" \
            sh -c "trap '' XFSZ; ulimit -f 1; OUT=\$1; eval \"\$2\"" sh \
            "$d/part2.$ext" "$good"
        WANT=""
        [ -e "$d/part2.$ext" ] && bad "$name: part-way failure left an output"
    else
        echo "note: $name: output ($big bytes) fits one ulimit -f block" \
             "($fsize_unit bytes); part-way case skipped"
    fi

    # Success replaces an existing file, with a normal mode, no temporary.
    printf 'previous contents\n' >"$d/new.$ext"
    if run "$d/new.$ext" "$good" >/dev/null 2>"$tmp/err" &&
        [ "$(wc -c <"$d/new.$ext")" -ge "$big" ] &&
        [ "$(leftovers "$d")" -eq 0 ]; then ok; else
        bad "$name: successful write"; fi
    mode=$(stat -c %a "$d/new.$ext")
    if [ "$mode" = 644 ]; then ok; else
        bad "$name: output mode $mode, want 644 (0666 & ~umask 022)"; fi
}

# ---- inputs ----------------------------------------------------------------
printf 'size 64 64\nbogus directive\n' >"$tmp/bad.scn"

{ printf '!!ARBvp1.0\nTEMP r;\n'
  i=0
  while [ $i -lt 600 ]; do
      printf 'MAD r, vertex.position, vertex.color, r;\n'
      i=$((i + 1))
  done
  printf 'MOV result.position, r;\nEND\n'; } >"$tmp/good.vp"
printf '!!ARBvp1.0\nMOV result.position, nowhere;\nEND\n' >"$tmp/bad.vp"

# ---- the writers -----------------------------------------------------------
# A bench scene at 96 x 96: a PNG of about 6 KB.
check_writer render png 2048 \
    '"$U" render --exact-math --size 96x96 -o "$OUT" "$ROOT/bench/scenes/procedural.scn"' \
    '"$U" render -o "$OUT" "$tmp/bad.scn"'

check_writer asm bin 4096 \
    '"$U" asm -o "$OUT" "$tmp/good.vp"' \
    '"$U" asm -o "$OUT" "$tmp/bad.vp"'

for t in scalar-nocompact simd4 vliw5 hetero; do
    check_writer "asm-$t" bin 4096 \
        "\"\$U\" asm --target $t -o \"\$OUT\" \"\$tmp/good.vp\"" \
        "\"\$U\" asm --target $t -o \"\$OUT\" \"\$tmp/bad.vp\""
done

if "$U" sfu --help >/dev/null 2>&1; then
    check_writer sfu-sweep csv 600 \
        '"$U" sfu sweep --func all --k 6 --degree 2 --step 65536 --jobs 1 --csv "$OUT"' \
        '"$U" sfu sweep --func all --k 99 --csv "$OUT"'
fi

echo "atomic: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
