#!/usr/bin/env bash
# The adoption checks, for CI: the DocC documentation (warnings are errors, every public symbol in
# Topics), the example app (its own package: build without warnings, end-to-end tests), and the
# `upgrade-sim` package plugin run from the example, as an app that depends on AppUpgrade runs it.
#
# usage: Scripts/check-adoption.sh
set -euo pipefail
cd "$(dirname "$0")/.."

example=Examples/NotesApp
work="$example/.build/check-adoption"
started=$SECONDS
step() { printf '\n==> %s (%ds)\n' "$*" "$((SECONDS - started))"; }

step "documentation: Scripts/build-docs.sh"
bash Scripts/build-docs.sh

step "example: swift build --package-path $example, warnings are errors"
mkdir -p "$work"
swift build --package-path "$example" --build-tests >"$work/build.log" 2>&1 || {
    cat "$work/build.log" >&2
    exit 1
}
if grep -E "(^|: )warning: " "$work/build.log"; then
    echo "error: the example's build has warnings (listed above)" >&2
    exit 1
fi

step "example: swift test --package-path $example"
swift test --package-path "$example" --skip-build 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]|^Test Suite|Executed 0 tests'

step "plugin: swift package --package-path $example upgrade-sim run Fixtures"
# On macOS, SwiftPM runs plugins (and the tools they start) in a sandbox that lets them write only to
# their own work folder: the report's folder must be allowed (the path is taken from the current
# folder). Linux has no plugin sandbox, and the option changes nothing there.
rm -f "$work/upgrade-sim.xml"
swift package --package-path "$example" --allow-writing-to-directory "$PWD/$work" upgrade-sim run Fixtures \
    --format junit --output .build/check-adoption/upgrade-sim.xml 2>"$work/plugin.log" || {
    cat "$work/plugin.log" >&2
    exit 1
}
grep -q '<testsuites name="upgrade-sim"' "$work/upgrade-sim.xml" || {
    echo "error: the plugin did not write the JUnit report $work/upgrade-sim.xml" >&2
    exit 1
}
echo "JUnit report: $work/upgrade-sim.xml"

step "plugin: swift package --package-path $example upgrade-sim explore Fixtures"
swift package --package-path "$example" upgrade-sim explore Fixtures 2>"$work/explore.log" || {
    cat "$work/explore.log" >&2
    exit 1
}

step "plugin: a failing fixture fails the command"
sed 's/"upgradedThrough": "2.1" }/"upgradedThrough": "2.0" }/' "$example/Fixtures/notes-app.json" \
    >"$work/failing.json"
if swift package --package-path "$example" upgrade-sim run .build/check-adoption/failing.json \
    >"$work/failing.log" 2>&1; then
    cat "$work/failing.log" >&2
    echo "error: swift package upgrade-sim exited 0 on a fixture whose expectations do not hold" >&2
    exit 1
fi
grep -q "Plugin ended with exit code 1" "$work/failing.log" || {
    cat "$work/failing.log" >&2
    echo "error: the plugin did not pass on the tool's exit status 1" >&2
    exit 1
}
echo "failed as it should, with the tool's status: $(grep -o 'Plugin ended with exit code [0-9]*' "$work/failing.log")"

step "plugin: a bare swift package upgrade-sim prints the usage, exit 0, without an error line"
swift package --package-path "$example" upgrade-sim >"$work/bare.log" 2>&1 || {
    cat "$work/bare.log" >&2
    echo "error: a bare swift package upgrade-sim failed" >&2
    exit 1
}
if ! grep -q "^USAGE: upgrade-sim <command>" "$work/bare.log" || grep -q "error" "$work/bare.log"; then
    cat "$work/bare.log" >&2
    echo "error: a bare swift package upgrade-sim should print the usage and no error" >&2
    exit 1
fi
echo "usage printed, no error"

step "format lint: Plugins Examples"
swift format lint --strict --recursive --parallel Plugins "$example/Package.swift" "$example/Sources" "$example/Tests"

step "adoption checks passed"
