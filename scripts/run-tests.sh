#!/usr/bin/env bash
# Runs the built tests (`swift test --skip-build`) and, when any fails, repeats every failure's lines at the end of
# the output: a CI log that keeps only its tail then still names the failing tests and what they recorded.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SWIFT="${SWIFT:-swift}"
log="$(mktemp "${TMPDIR:-/tmp}/apitest-tests.XXXXXX.log")"
trap 'rm -f "$log"' EXIT
# Suites that hold apitest to a wall-clock promise (a signal ends a run within 1 s; a hostile suite is refused within
# seconds; a load run's latency against an earlier run's of the same route; a stall's share of a 1,000/s load's
# percentiles, whose backlog a loaded machine drains 7 s late instead of 1) run after the others, alone: on two
# cores shared with every other test, the machine's load, not apitest, decides their times. With arguments (a --filter of one's own), the tests run once, as asked.
timed='CheckCancellationTests|LoadBudgetCLITests|LoadBaselineCLITests|LoadTests/aStallShows'
if [[ $# -eq 0 ]]; then
    "$SWIFT" test --skip-build --skip "$timed" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    echo "==== the timed suites, alone: $timed"
    "$SWIFT" test --skip-build --filter "$timed" 2>&1 | tee -a "$log"
    timed_status=${PIPESTATUS[0]}
    [[ $status -eq 0 ]] && status=$timed_status
else
    "$SWIFT" test --skip-build "$@" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
fi
if [[ $status -ne 0 ]]; then
    echo
    echo "==== the tests failed (exit $status); what the failing tests recorded:"
    # A recorded issue starts with "✘ Test ... recorded an issue" and its message may span the lines that follow,
    # up to the next line the test runner starts with a symbol of its own.
    awk '
        /^✘ Test .* recorded an issue/ { printing = 1; lines = 0; print; next }
        /^(✔|✘|◇|↳|􀟈|􀢄|Test Suite|Test Case|\[)/ { if (printing && $0 ~ /^↳/) { print; next } printing = 0 }
        printing && lines < 12 { print; lines++ }
    ' "$log" | cut -c1-400 | head -n 300
    grep -E 'error: |Fatal error|Exited with (unexpected )?signal' "$log" | cut -c1-300 | head -n 20
    # Last, one line per recorded issue: the part of a long log that is kept is its end.
    echo "==== in short:"
    grep -E '^✘ Test .* recorded an issue' "$log" | cut -c1-300 | head -n 15
fi
exit "$status"
