#!/usr/bin/env bash
# The HTML report in a real browser (Scripts/README.md, "The HTML report's check"): renders the report of the
# shipped fixtures, of a failing fixture beside the 40-step, 30-launch one, and of explore's findings;
# parses each page with html5lib in strict mode and each SVG as XML; screenshots each page with headless
# Chromium at 1280 and 390 px wide and checks the screenshots are not blank; and measures an instrumented
# copy of each page (the report itself has no script) at both widths: the expected number of timelines,
# each drawn, and nothing but the timelines' boxes wider than the page.
#
#   bash Scripts/check-html-report.sh            # as CI runs it
#
# Installs Debian's chromium and python3-html5lib when missing. UPGRADE_SIM names a built upgrade-sim
# to use instead of building one. Writes the pages and screenshots to .build/check-html-report/.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'html-report: %s\n' "$*"; }
give_up() {
    printf 'html-report: error: %s\n' "$*" >&2
    exit 1
}

find_python() {
    local candidate
    for candidate in python3 /usr/bin/python3; do
        if command -v "$candidate" >/dev/null && "$candidate" -c 'import html5lib' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}
find_chromium() {
    local candidate
    for candidate in chromium chromium-browser; do
        if command -v "$candidate" >/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

python=$(find_python || true)
chromium=$(find_chromium || true)
if [ -z "$python" ] || [ -z "$chromium" ]; then
    say "installing chromium and python3-html5lib (Debian packages)"
    command -v apt-get >/dev/null || give_up "chromium or html5lib is missing and there is no apt-get to install them"
    install_log=$(mktemp)
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium python3-html5lib; } \
        >"$install_log" 2>&1; then
        tail -n 20 "$install_log" >&2
        rm -f "$install_log"
        give_up "apt-get install chromium python3-html5lib failed"
    fi
    rm -f "$install_log"
    python=$(find_python || true)
    chromium=$(find_chromium || true)
    [ -n "$python" ] || give_up "html5lib still cannot be imported after installing python3-html5lib"
    [ -n "$chromium" ] || give_up "no chromium after installing it"
fi

if [ -n "${UPGRADE_SIM:-}" ]; then
    binary=$UPGRADE_SIM
else
    say "building upgrade-sim (debug)"
    swift build --product upgrade-sim 2>&1 | tail -n 1
    binary="$(swift build --show-bin-path)/upgrade-sim"
fi
[ -x "$binary" ] || give_up "no upgrade-sim at $binary"

work=.build/check-html-report
rm -rf "$work"
mkdir -p "$work"

# runs upgrade-sim, expecting the exit status $1
expect_status() {
    local expected=$1
    shift
    set +e
    "$binary" "$@" >"$work/stdout.txt" 2>"$work/stderr.txt"
    local status=$?
    set -e
    if [ "$status" -ne "$expected" ]; then
        cat "$work/stderr.txt" >&2
        give_up "upgrade-sim $* exited $status, expected $expected"
    fi
}

say "rendering the reports"
expect_status 0 run Fixtures --format html --output "$work/shipped.html"
expect_status 0 run Fixtures --format json --output "$work/shipped.json"
# A failing report: the 40-step, 30-launch fixture with launch 9's outcome and launch 10's mark
# expected wrongly, and the spec example with its crashes expected as failures. Its screenshot at
# 1280 px, through pngquant, is the README's.
"$python" - Fixtures/40-forty-steps-thirty-launches.json "$work/forty-wrong.json" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
launches = [i for i, line in enumerate(lines) if line.strip().startswith('{ "outcome"')]
lines[launches[8]] = lines[launches[8]].replace('"outcome": "crashed"', '"outcome": "failed"')
lines[launches[9]] = lines[launches[9]].replace('"upgradedThrough": "2.0"', '"upgradedThrough": "1.2"')
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(lines))
PY
sed 's/"outcome": "crashed"/"outcome": "failed"/' Fixtures/29-spec-example.json >"$work/spec-wrong.json"
for changed in forty-wrong spec-wrong; do
    cmp -s "$work/$changed.json" Fixtures/40-forty-steps-thirty-launches.json && give_up "$changed.json did not change"
    cmp -s "$work/$changed.json" Fixtures/29-spec-example.json && give_up "$changed.json did not change"
done
expect_status 1 run "$work/forty-wrong.json" "$work/spec-wrong.json" --format html --output "$work/failing.html"
expect_status 1 run "$work/forty-wrong.json" "$work/spec-wrong.json" --format json --output "$work/failing.json"
expect_status 1 explore Fixtures/37-step-added-later-with-older-version.json \
    Fixtures/38-crash-looping-step-removed-in-hotfix.json --format html --output "$work/explore.html"
expect_status 1 explore Fixtures/37-step-added-later-with-older-version.json \
    Fixtures/38-crash-looping-step-removed-in-hotfix.json --format json --output "$work/explore.json"

"$python" Scripts/htmlreport/check.py --chromium "$chromium" --work "$work" \
    shipped.html:shipped.json failing.html:failing.json explore.html:explore.json
