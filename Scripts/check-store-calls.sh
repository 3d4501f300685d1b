#!/usr/bin/env bash
# Checks that upgrade-bench's "the store's calls" contender (Tools/upgrade-bench/StoreCalls.swift)
# makes the system calls that a pending launch through FileUpgradeStore makes, call for call, at both
# durability levels: each contender runs N and 2N times under `strace -c`, and the counts of the file
# system calls per launch (the difference of the two runs over N, so that the shared setup drops out)
# must be equal. A store that gains or loses a call makes this fail until StoreCalls follows it.
#
#   bash Scripts/check-store-calls.sh           # builds upgrade-bench (release) first
#   UPGRADE_BENCH=path bash Scripts/check-store-calls.sh
#
# Installs Debian's strace when it is missing. Linux only.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v strace >/dev/null 2>&1; then
    echo "check-store-calls: installing strace"
    (apt-get update -qq && apt-get install -y -qq strace) >/dev/null
fi
bench=${UPGRADE_BENCH:-}
if [ -z "$bench" ]; then
    swift build -c release --product upgrade-bench 2>&1 | tail -n 1
    bench=.build/release/upgrade-bench
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The calls compared: those of files, folders, locks and the temporary name. write and writev count
# together (the store writes a document's pieces with one writev, the replay with one write), and so
# do the names of the stat family.
count() {  # LEVEL CONTENDER ITERATIONS -> "call count" lines
    strace -f -c -U name,calls -o "$work/out" "$bench" --filter "launch-all-pending-$1" \
        --profile "$2" --iterations "$3" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    python3 - "$work/out" <<'EOF'
import re, sys
merge = {"writev": "write", "newfstatat": "stat", "fstat": "stat", "lstat": "stat", "stat": "stat",
         "statx": "stat", "rename": "rename", "renameat": "rename", "renameat2": "rename"}
kept = {"openat", "open", "read", "pread64", "write", "pwrite64", "close", "flock", "getpid",
        "getrandom", "getdents64", "fsync", "unlink", "stat", "rename"}
counts = {}
for line in open(sys.argv[1]):
    fields = line.split()
    if len(fields) != 2 or not fields[1].isdigit():
        continue
    name = merge.get(fields[0], fields[0])
    if name in kept:
        counts[name] = counts.get(name, 0) + int(fields[1])
for name in sorted(counts):
    print(name, counts[name])
EOF
}

per_launch() {  # LEVEL CONTENDER -> calls per launch
    count "$1" "$2" 20 > "$work/a"
    count "$1" "$2" 40 > "$work/b"
    python3 - "$work/a" "$work/b" <<'EOF'
import sys
a = dict(line.split() for line in open(sys.argv[1]))
b = dict(line.split() for line in open(sys.argv[2]))
for name in sorted(set(a) | set(b)):
    n = (int(b.get(name, 0)) - int(a.get(name, 0))) / 20
    if n:
        print(f"{name} {n:g}")
EOF
}

failed=0
for level in app-kill power-loss; do
    for steps in 10 100; do
        per_launch "$level" "Upgrader.run, $steps pending" > "$work/launch"
        per_launch "$level" "the store's calls, $steps pending" > "$work/calls"
        # The restore before each launch is the same for both; the rest must be too.
        if diff -u "$work/launch" "$work/calls" > "$work/diff"; then
            echo "check-store-calls: $level, $steps pending: the same calls per launch ($(tr '\n' ' ' < "$work/launch"))"
        else
            echo "check-store-calls: $level, $steps pending: the calls differ (- the launch, + the replay):" >&2
            cat "$work/diff" >&2
            failed=1
        fi
    done
done
exit "$failed"
