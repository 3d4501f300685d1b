#!/usr/bin/env bash
# Fuzzes one input reader of the package with libFuzzer (Tools/upgrade-fuzz; `upgrade-fuzz --help`
# lists the targets and the properties each checks).
#
# It builds upgrade-fuzz with AddressSanitizer and coverage instrumentation, linked with the
# toolchain's libFuzzer, in its own scratch folder (.build/fuzz, so that the ordinary .build is not
# rebuilt), then fuzzes TARGET for SECONDS from the checked-in seeds (Fuzz/corpus/TARGET, and the
# shipped fixtures for the fixture target) and the inputs of earlier runs. Everything
# it writes stays under .build/fuzz-run/TARGET: corpus/ (the inputs it found that reach new code,
# kept from run to run) and crash-*, timeout-* and the like (each input that failed a property or
# crashed). Nothing is written into Fuzz/corpus: to keep a failure as a regression input, minimize it
# and copy it there by hand (Fuzz/README.md).
#
# usage: Scripts/fuzz.sh TARGET [SECONDS] [libFuzzer flags...]
#   TARGET    version, state-document, fixture or installed-base
#   SECONDS   how long to fuzz (60 by default)
#   flags     passed on to libFuzzer, after the script's own (a later flag wins), such as -jobs=2
#
# Environment: LIBFUZZER, the path of libclang_rt.fuzzer_no_main (found in the toolchain otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."

target="${1:-}"
# The longest input worth mutating: versions are short; the seeds of the documents are 0.3-4 KB.
# The fixture target is also seeded from the shipped fixtures (Fixtures/).
seeds=()
case "$target" in
version) max_len=64 ;;
state-document) max_len=4096 ;;
installed-base) max_len=2048 ;;
fixture)
    max_len=8192
    seeds=("$(pwd)/Fixtures")
    ;;
*)
    sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
seconds="${2:-60}"
shift $(($# < 2 ? $# : 2))

if [ -z "${LIBFUZZER:-}" ]; then
    toolchain="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"
    LIBFUZZER="$(find "$toolchain/lib/clang" -name 'libclang_rt.fuzzer_no_main-x86_64.a' 2> /dev/null | head -n 1)"
fi
if [ ! -f "${LIBFUZZER:-}" ]; then
    echo "error: libclang_rt.fuzzer_no_main not found in the toolchain; set LIBFUZZER to its path" >&2
    exit 1
fi

echo "==> building upgrade-fuzz with libFuzzer (.build/fuzz)"
swift build -c release --product upgrade-fuzz --scratch-path .build/fuzz \
    -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
    -Xlinker "$LIBFUZZER" -Xlinker -lstdc++ \
    -Xlinker --undefined=LLVMFuzzerRunDriver -Xlinker --export-dynamic-symbol=LLVMFuzzerRunDriver \
    2>&1 | tail -n 1

root="$(pwd)"
out="$root/.build/fuzz-run/$target"
mkdir -p "$out/corpus"
echo "==> fuzzing $target for $seconds s; new inputs in .build/fuzz-run/$target/corpus, failures in .build/fuzz-run/$target/"
# From the output folder, where libFuzzer's -jobs and -fork modes write their fuzz-N.log files.
# Without the Swift runtime's backtracer, so that libFuzzer handles a trap (and saves the input).
cd "$out"
SWIFT_BACKTRACE=enable=no exec "$root/.build/fuzz/release/upgrade-fuzz" "$target" \
    corpus "$root/Fuzz/corpus/$target" "${seeds[@]}" \
    -max_len="$max_len" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$out/" "$@"
