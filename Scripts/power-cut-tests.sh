#!/usr/bin/env bash
# The power-cut tests (Scripts/powercut/README.md): real `upgrade-sim launch` runs on an
# in-memory FUSE file system that forgets what was not flushed (Scripts/powercut/powercutfs.py), cut
# at every mutating operation in turn, at both durability levels, then the mutation check (with a
# flush or the torn-record check skipped, the power-loss checks must break). Scripts/powercut/run.py says what is checked.
#
#   bash Scripts/power-cut-tests.sh                      # everything, as CI runs it
#   bash Scripts/power-cut-tests.sh --level app-kill -v  # other arguments go to run.py instead
#
# Needs root (or a user allowed to mount FUSE) and /dev/fuse. Installs Debian's fuse3 and
# python3-fusepy when fusepy is missing. Mounts in a temporary folder, unmounts and removes it
# however it ends. POWER_CUT_TIMEOUT (seconds, 900 by default) bounds the whole run; UPGRADE_SIM
# names a built upgrade-sim to use instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."

timeout_seconds=${POWER_CUT_TIMEOUT:-900}
say() { printf 'power-cut: %s\n' "$*"; }
give_up() {
    printf 'power-cut: error: %s\n' "$*" >&2
    echo "power-cut: 0 passed, 1 failed"
    exit 1
}

# fusepy as the file system imports it: PyPI's module `fuse`, or Debian's `fusepy`.
imports_fusepy() {
    "$1" - <<'EOF' 2>/dev/null
try:
    from fuse import FUSE, FuseOSError, Operations, fuse_get_context
except ImportError:
    from fusepy import FUSE, FuseOSError, Operations, fuse_get_context
EOF
}
find_python() {
    local candidate
    for candidate in python3 /usr/bin/python3; do
        if command -v "$candidate" >/dev/null && imports_fusepy "$candidate"; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

python=$(find_python || true)
if [ -z "$python" ] || { ! command -v fusermount3 >/dev/null && ! command -v fusermount >/dev/null; }; then
    say "installing fuse3 and python3-fusepy (Debian packages)"
    command -v apt-get >/dev/null || give_up "fusepy or FUSE is missing and there is no apt-get to install them"
    install_log=$(mktemp)
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fuse3 python3-fusepy; } \
        >"$install_log" 2>&1; then
        tail -n 20 "$install_log" >&2
        rm -f "$install_log"
        give_up "apt-get install fuse3 python3-fusepy failed"
    fi
    rm -f "$install_log"
    python=$(find_python || true)
    [ -n "$python" ] || give_up "fusepy still cannot be imported after installing python3-fusepy"
fi
[ -e /dev/fuse ] || modprobe fuse 2>/dev/null || true
[ -e /dev/fuse ] || give_up "/dev/fuse is missing: this machine (or container) has no FUSE"

if [ -n "${UPGRADE_SIM:-}" ]; then
    binary=$UPGRADE_SIM
else
    say "building upgrade-sim (debug)"
    build_log=$(mktemp)
    if ! swift build --product upgrade-sim >"$build_log" 2>&1; then
        tail -n 30 "$build_log" >&2
        rm -f "$build_log"
        give_up "swift build --product upgrade-sim failed"
    fi
    tail -n 1 "$build_log"
    rm -f "$build_log"
    binary="$(swift build --show-bin-path)/upgrade-sim"
fi
[ -x "$binary" ] || give_up "no upgrade-sim at $binary"

work=$(mktemp -d "${TMPDIR:-/tmp}/power-cut.XXXXXX")
mountpoint="$work/mnt"
control="$work/control.sock"
mkdir "$mountpoint"
filesystem_pid=""
unmount() {
    if grep -qs " $mountpoint " /proc/mounts; then
        umount "$mountpoint" 2>/dev/null || fusermount3 -u "$mountpoint" 2>/dev/null \
            || fusermount -u "$mountpoint" 2>/dev/null || umount -l "$mountpoint" 2>/dev/null || true
    fi
}
clean_up() {
    unmount
    if [ -n "$filesystem_pid" ] && kill -0 "$filesystem_pid" 2>/dev/null; then
        # Unmounted, it ends by itself; if it has not after 5 s, it is stuck.
        for _ in $(seq 50); do kill -0 "$filesystem_pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$filesystem_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap clean_up EXIT
trap 'exit 130' INT TERM

"$python" Scripts/powercut/powercutfs.py "$mountpoint" --control "$control" >"$work/filesystem.log" 2>&1 &
filesystem_pid=$!
for _ in $(seq 100); do
    if grep -qs " $mountpoint " /proc/mounts && [ -S "$control" ]; then break; fi
    kill -0 "$filesystem_pid" 2>/dev/null || break
    sleep 0.1
done
if ! grep -qs " $mountpoint " /proc/mounts; then
    cat "$work/filesystem.log" >&2
    give_up "the power-cut file system did not mount at $mountpoint (its log is above)"
fi
say "mounted at $mountpoint (file system pid $filesystem_pid, $python), upgrade-sim at $binary"

if [ "$#" -eq 0 ]; then
    set -- --mutation journal --mutation folder --mutation torn-check
fi
status=0
# Its journals go to $work too (an ordinary disk, beside the mount, not on it), removed however it ends.
TMPDIR="$work" timeout --kill-after=10 "$timeout_seconds" \
    "$python" Scripts/powercut/run.py --mount "$mountpoint" --control "$control" --binary "$binary" "$@" \
    || status=$?
case "$status" in
    0 | 1) ;;
    124 | 137) give_up "timed out after $timeout_seconds s (POWER_CUT_TIMEOUT)" ;;
    *)
        tail -n 20 "$work/filesystem.log" >&2
        give_up "run.py failed (exit $status); the file system's log ends as above"
        ;;
esac
if ! kill -0 "$filesystem_pid" 2>/dev/null; then
    tail -n 20 "$work/filesystem.log" >&2
    give_up "the power-cut file system died during the run"
fi
exit "$status"
