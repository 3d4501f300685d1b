#!/usr/bin/env bash
# Runs the whole test suite N times in a row (default 10) on a clean clone of this checkout's HEAD,
# with a CPU hog on each of two cores for the whole time, and fails if any run fails. A suite that
# passes here does not flake on a loaded 2-core machine (issue 12). Commit first: only HEAD is tested.
#
# usage: Scripts/stress-tests.sh [RUNS]
#   HOGS=n     the number of `yes > /dev/null` CPU hogs (default 2)
#   KEEP=1     keep the clone (and its build folder) afterwards; the logs of failed runs are always kept
set -euo pipefail

runs=${1:-10}
hogs=${HOGS:-2}
if ! [[ $runs =~ ^[1-9][0-9]*$ ]] || ! [[ $hogs =~ ^[0-9]+$ ]]; then
    echo "usage: $0 [RUNS]   (RUNS a positive number, 10 by default; HOGS=n CPU hogs, 2 by default)" >&2
    exit 2
fi

root=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
commit=$(git -C "$root" rev-parse HEAD)
if [[ -n $(git -C "$root" status --porcelain --untracked-files=no) ]]; then
    echo "note: $root has uncommitted changes; they are not tested (only HEAD, $commit, is)" >&2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/appupgrade-stress.XXXXXX")
clone="$work/AppUpgrade"
logs="$work/logs"
mkdir -p "$logs"
hog_pids=()
failures=0

cleanup() {
    local pid
    for pid in ${hog_pids[@]+"${hog_pids[@]}"}; do kill "$pid" 2>/dev/null || true; done
    # SwiftPM's lock files for the clone's build folder, which it leaves in the temporary folder.
    rm -f "${TMPDIR:-/tmp}/${clone//\//_}_.build"*.lock
    if [[ ${KEEP:-0} == 1 ]]; then
        echo "kept: $work"
    elif ((failures > 0)); then
        rm -rf "$clone"
        echo "logs of the failed runs: $logs"
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "==> clean clone of $commit in $clone"
git clone --quiet --no-hardlinks "$root" "$clone"
if [[ $(git -C "$clone" rev-parse HEAD) != "$commit" ]]; then
    git -C "$clone" checkout --quiet --detach "$commit"
fi

echo "==> swift build --build-tests (not timed, no hogs yet)"
if ! (cd "$clone" && swift build --build-tests >"$logs/build.log" 2>&1); then
    tail -n 40 "$logs/build.log" >&2
    failures=1
    echo "stress-tests: the build failed; no test ran ($logs/build.log)" >&2
    exit 1
fi

echo "==> $hogs CPU hogs (yes > /dev/null)"
for ((i = 0; i < hogs; i++)); do
    yes >/dev/null &
    hog_pids+=("$!")
done

started=$SECONDS
for ((run = 1; run <= runs; run++)); do
    log="$logs/run-$run.log"
    run_started=$SECONDS
    if (cd "$clone" && swift test >"$log" 2>&1); then passed=1; else passed=0; fi
    summary=$(grep -aE "Test run with [0-9]+ tests" "$log" | tail -n 1 || true)
    printf 'run %d/%d: %s in %ds: %s\n' "$run" "$runs" "$( ((passed)) && echo passed || echo FAILED)" \
        "$((SECONDS - run_started))" "${summary:-no summary line}"
    if ((passed)); then
        rm -f "$log"
    else
        failures=$((failures + 1))
        grep -aE "^✘|: error: |Fatal error" "$log" | head -n 20 | sed 's/^/    /' || true
        echo "    log: $log"
    fi
done

echo "stress-tests: $runs runs of swift test, $failures failed, in $((SECONDS - started))s" \
    "(commit ${commit:0:10}, $hogs CPU hogs, $(nproc 2>/dev/null || sysctl -n hw.ncpu) cores)"
((failures == 0))
