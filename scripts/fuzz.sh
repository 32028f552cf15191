#!/usr/bin/env bash
# Runs every fuzz target (Sources/APITestFuzzing, `FuzzTarget`) with libFuzzer for a bounded time and prints how
# many executions each ran and what it found. `make fuzz` calls it; CI calls it with a short time.
#
#   scripts/fuzz.sh [--seconds N | --runs N] [--seed N] [TARGET...]
#
# --seconds bounds each target's time (default FUZZ_SECONDS or 60); --runs bounds its executions instead, which with
# --seed makes a run repeatable (CI: `--runs 20000 --seed 1`, so a finding is the same on every run).
#
# The build is separate (.build-fuzz): every Swift module is instrumented (`-sanitize=fuzzer`) and `apitest-fuzz`
# is compiled with APITEST_LIBFUZZER, so it hands the arguments after the target to libFuzzer's driver. Each target runs on a copy
# of its seed corpus (Fuzz/corpus/TARGET) with its dictionary (Fuzz/dict/TARGET.dict); new inputs libFuzzer keeps are
# left in .build-fuzz/corpus/TARGET, never in the repository. A crash, a leak of time (-timeout) or of memory
# (-rss_limit_mb) fails the script and leaves the input in .build-fuzz/findings/TARGET; keep it as a seed under
# Fuzz/corpus/TARGET once the defect is mended, so the tests replay it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SWIFT="${SWIFT:-swift}"
seconds="${FUZZ_SECONDS:-60}"
runs=""
seed=""
targets=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
        -*) echo "fuzz: unknown option '$1'" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(yaml expression jsonpath json curl postman-script openapi protobuf)
fi

scratch=.build-fuzz
"$SWIFT" build --scratch-path "$scratch" --product apitest-fuzz \
    -Xswiftc -sanitize=fuzzer -Xswiftc -DAPITEST_LIBFUZZER
binary="$("$SWIFT" build --scratch-path "$scratch" --product apitest-fuzz --show-bin-path)/apitest-fuzz"

# Swift's own crash handler would print a backtrace and end the process before libFuzzer saves the input.
export SWIFT_BACKTRACE=enable=no
status=0
summary=()
for target in "${targets[@]}"; do
    work="$scratch/corpus/$target"
    findings="$scratch/findings/$target"
    mkdir -p "$work" "$findings"
    cp -n "Fuzz/corpus/$target/"* "$work/" 2>/dev/null || true
    rm -f "$work/LICENSE"
    log="$scratch/findings/$target.log"
    bound=(-max_total_time="$seconds")
    [[ -n "$runs" ]] && bound=(-runs="$runs")
    [[ -n "$seed" ]] && bound+=(-seed="$seed")
    echo "fuzz: $target (${bound[*]})"
    set +e
    "$binary" "$target" "${bound[@]}" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
        -dict="Fuzz/dict/$target.dict" -artifact_prefix="$findings/" -print_final_stats=1 "$work" >"$log" 2>&1
    code=$?
    set -e
    executed=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -n 1)
    coverage=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | awk '{print $2}')
    found=$(find "$findings" -type f | wc -l)
    summary+=("$target: ${executed:-?} executions, coverage ${coverage:-?} edges, exit $code, $found finding(s)")
    if [[ $code -ne 0 || $found -ne 0 ]]; then
        status=1
        echo "fuzz: $target found a defect; the log's end:" >&2
        tail -n 40 "$log" >&2
    fi
done
if [[ -n "$runs" ]]; then bounded="$runs runs"; else bounded="${seconds}s"; fi
echo "==== fuzz summary ($bounded a target${seed:+, seed $seed})"
printf '%s\n' "${summary[@]}"
exit "$status"
