#!/bin/sh
# Memory systems as parts (knob mem_system, docs/MEMORY.md) through the
# CLI: every part runs real kernels (tests/compute/sum.cp, reduce.cp) on
# the scalar model and on vec4 models, leaves memory identical to the
# reference interpreter's, and its cycles and counts move as the part
# says: the default is lsu, a slower port costs cycles, coalescing merges
# a lockstep warp's consecutive stores, the cache fetches each line of
# reduce.cp's input once, the TMCU's buffering costs cycles over lsu.
set -u
BUILD=${BUILD:-build}
U="$(pwd)/$BUILD/ushader"
cd "$(dirname "$0")/compute"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# reduce.cp's input: the uint32 words 0..191
i=0; : > "$tmp/in.bin"
while [ $i -lt 192 ]; do
    printf "$(printf '\\%03o' $i)\000\000\000" >> "$tmp/in.bin"
    i=$((i + 1))
done
printf '\144\000\000\000' > "$tmp/c.bin"

# run KERNEL ARCH TAG [--set K=V]...: launch, outputs to $tmp/TAG.*,
# the report to $tmp/TAG.out
run() {
    rk=$1 ra=$2 rt=$3   # sh has no locals: names of run's own
    shift 3
    case $rk in
    sum.cp) set -- "$@" --buffer 0=,48 --buffer 1=,48 --buffer 2="$tmp/c.bin" \
                --out 0="$tmp/$rt.0" --out 1="$tmp/$rt.1" --out 2="$tmp/$rt.2" ;;
    reduce.cp) set -- "$@" --set threads_per_proc=32 --buffer 0="$tmp/in.bin" \
                --buffer 1=,12 --out 1="$tmp/$rt.1" ;;
    esac
    "$U" compute "$rk" --groups 3 --arch "$ra" "$@" > "$tmp/$rt.out" \
        2> "$tmp/$rt.err"
}

# stat TAG KEY: a statistic of a report
stat() { awk -v k="$2" '$1 == k { print $2 }' "$tmp/$1.out"; }

# same_memory TAG REF: the output buffers are the same bytes
same_memory() {
    for f in "$tmp/$2".[0-9]; do
        cmp -s "$f" "$tmp/$1.${f##*.}" || return 1
    done
}

parts="lsu port coalesce tmcu cache"
for k in sum.cp reduce.cp; do
    run "$k" functional "$k.ref" || bad "$k: interpreter: $(cat "$tmp/$k.ref.err")"
    for a in scalar simd4 vliw; do
        for p in $parts; do
            t="$k.$a.$p"
            if run "$k" "$a" "$t" --set mem_system=$p; then
                same_memory "$t" "$k.ref" && ok ||
                    bad "$k on $a, mem_system=$p: memory differs from the interpreter's"
                n=$(stat "$t" memsys.requests)
                want=$(( $(stat "$t" memory.loads) + $(stat "$t" memory.stores) + $(stat "$t" memory.atomics) ))
                [ "$n" = "$want" ] && ok ||
                    bad "$k on $a, $p: memsys.requests $n, accesses $want"
            else
                bad "$k on $a, mem_system=$p: $(cat "$tmp/$t.err")"
            fi
        done
        # the default is lsu, to the cycle
        t="$k.$a"
        run "$k" "$a" "$t.default" || bad "$k on $a: $(cat "$tmp/$t.default.err")"
        [ "$(stat "$t.default" cycles)" = "$(stat "$t.lsu" cycles)" ] && ok ||
            bad "$k on $a: the default's cycles are not lsu's"
        # lsu: one transaction per request, nothing waits
        [ "$(stat "$t.lsu" memsys.coalescing)" = 1 ] &&
        [ "$(stat "$t.lsu" memsys.stall_cycles)" = 0 ] && ok ||
            bad "$k on $a: lsu coalesced or stalled"
        # a port of 200 cycles per request is slower than lsu's 20, one of
        # 1 faster
        run "$k" "$a" "$t.slow" --set mem_system=port --set mem_port_cycles=200
        run "$k" "$a" "$t.fast" --set mem_system=port --set mem_port_cycles=1
        l=$(stat "$t.lsu" cycles) s=$(stat "$t.slow" cycles) f=$(stat "$t.fast" cycles)
        [ "$s" -gt "$l" ] && [ "$f" -lt "$l" ] && ok ||
            bad "$k on $a: port cycles slow $s, fast $f against lsu $l"
        # the TMCU holds requests in its buffer: slower than lsu here
        [ "$(stat "$t.tmcu" cycles)" -gt "$l" ] && ok ||
            bad "$k on $a: tmcu $(stat "$t.tmcu" cycles) not above lsu $l"
    done
done

# the cache: reduce.cp reads 192 consecutive words, 16-byte lines: each
# of the 48 lines fetched once (4 words each), every other load a hit;
# its shared-memory accesses are not cached and its 3 stores write
# through, so 48 x 4 + 3 transactions
for a in scalar simd4 vliw; do
    run reduce.cp "$a" "$a.c" --set mem_system=cache
    [ "$(stat "$a.c" memsys.misses)" = 48 ] && [ "$(stat "$a.c" memsys.hits)" = 144 ] &&
    [ "$(stat "$a.c" memsys.transactions)" = 195 ] && ok ||
        bad "reduce.cp on $a, cache: misses $(stat "$a.c" memsys.misses), hits $(stat "$a.c" memsys.hits), transactions $(stat "$a.c" memsys.transactions)"
    # 32-byte lines: half the misses
    run reduce.cp "$a" "$a.c32" --set mem_system=cache --set cache_line=32
    [ "$(stat "$a.c32" memsys.misses)" = 24 ] && ok ||
        bad "reduce.cp on $a, 32-byte lines: misses $(stat "$a.c32" memsys.misses)"
done

# coalescing: sum.cp's stores of a lockstep warp of 4 SPs are 4
# consecutive words, one 128-byte line: 4 requests a transaction; the
# atomics (one word for all) stay one each.  Without lockstep each SP's
# request is alone.
run sum.cp scalar "co" --set mem_system=coalesce
[ "$(stat co memsys.coalescing)" = 1 ] && ok ||
    bad "sum.cp, coalesce without lockstep: $(stat co memsys.coalescing)"
run sum.cp scalar "co4" --set mem_system=coalesce --set lockstep=4
[ "$(stat co4 memsys.requests)" = 36 ] && [ "$(stat co4 memsys.transactions)" = 18 ] && ok ||
    bad "sum.cp, coalesce lockstep 4: $(stat co4 memsys.requests) requests, $(stat co4 memsys.transactions) transactions"
same_memory co4 sum.cp.ref && ok || bad "sum.cp, coalesce lockstep 4: memory differs"

# a size that is not a power of two is refused, with the knob's name
if run sum.cp scalar "bad" --set mem_system=cache --set cache_banks=3; then
    bad "cache_banks=3 accepted"
else
    grep -q "^ushader: .*error: mem_system=cache: cache_banks=3 is not a power of two$" \
        "$tmp/bad.err" && ok || bad "cache_banks=3: $(cat "$tmp/bad.err")"
    [ ! -e "$tmp/bad.0" ] && ok || bad "cache_banks=3: an output was written"
fi

echo "memsys: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
