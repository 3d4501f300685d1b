#!/usr/bin/env bash
# Checks that upgrade-bench's "the store's calls" contender (Tools/upgrade-bench/StoreCalls.swift)
# makes the system calls that a pending launch through FileUpgradeStore makes: as many calls of each
# kind per launch, at both durability levels, at 10 and 100 steps. Each contender runs N and 2N times
# under `strace -c`, and the count of each call per launch is the difference of the two runs over N,
# so that the shared setup drops out. `strace -c` counts calls, not their order: a store that gains,
# loses or swaps a call for one of another kind makes this fail until StoreCalls follows it; a store
# that only reorders its calls does not.
#
#   bash Scripts/check-store-calls.sh           # builds upgrade-bench (release) first
#   UPGRADE_BENCH=path bash Scripts/check-store-calls.sh
#
# Linux only. Installs Debian's strace when it is missing (as root, with apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."

give_up() {
    printf 'check-store-calls: error: %s\n' "$*" >&2
    exit 1
}
if ! command -v strace >/dev/null 2>&1; then
    echo "check-store-calls: installing strace (Debian package)"
    command -v apt-get >/dev/null || give_up "strace is missing and there is no apt-get to install it"
    install_log=$(mktemp)
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq strace; } \
        >"$install_log" 2>&1; then
        tail -n 20 "$install_log" >&2
        rm -f "$install_log"
        give_up "apt-get install strace failed"
    fi
    rm -f "$install_log"
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
# do the names of the stat family, of open, of rename and of unlink (arm64 has only the *at forms).
count() {  # LEVEL CONTENDER ITERATIONS -> "call count" lines
    strace -f -c -U name,calls -o "$work/out" "$bench" --filter "launch-all-pending-$1" \
        --profile "$2" --iterations "$3" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    python3 - "$work/out" <<'EOF'
import re, sys
merge = {"writev": "write", "newfstatat": "stat", "fstat": "stat", "lstat": "stat", "stat": "stat",
         "statx": "stat", "renameat": "rename", "renameat2": "rename", "unlinkat": "unlink",
         "openat": "open", "openat2": "open", "mkdirat": "mkdir", "fchmodat": "fchmod"}
kept = {"open", "read", "pread64", "write", "pwrite64", "close", "flock", "getpid", "getrandom",
        "getdents64", "fsync", "fdatasync", "unlink", "stat", "rename", "ftruncate", "fchmod", "mkdir",
        "lseek", "fcntl", "close_range", "link", "linkat", "symlink", "readlink", "readlinkat"}
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
