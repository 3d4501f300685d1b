#!/usr/bin/env bash
# Builds the DocC documentation of every library module with the toolchain's own `docc` (no plugin).
#
# A library module is documented when it has a catalog, Modules/NAME/NAME.docc. For each one, in
# dependency order, the script:
#   1. builds the module with `-emit-symbol-graph` (in its own scratch folder, .build-docs, so that
#      the extra compiler flags do not invalidate the ordinary .build);
#   2. runs `docc convert` on the catalog and the module's symbol graphs with --warnings-as-errors,
#      passing the archives of the documented modules it depends on with --dependency, so that
#      ``/UpgradeCore/UpgradeStore``-style links to another module's symbols resolve;
#   3. checks that the catalog's Topics sections list every public symbol (Scripts/check-doc-topics.py);
# then merges the archives into one, .docc-build/AppUpgrade.doccarchive.
#
# usage: Scripts/build-docs.sh [--serve [PORT]]
#   --serve   after building, serve the combined archive on http://localhost:PORT (8000)
set -euo pipefail
cd "$(dirname "$0")/.."

serve_port=""
case "${1:-}" in
    --serve) serve_port="${2:-8000}" ;;
    "") ;;
    *)
        echo "usage: $0 [--serve [PORT]]" >&2
        exit 2
        ;;
esac

docc="${DOCC:-$(dirname "$(command -v swift)")/docc}"
[[ -x "$docc" ]] || docc="$(command -v docc)"
out=.docc-build
scratch=.build-docs
graphs="$scratch/symbol-graphs"
bundle_prefix=appupgrade

# The documented modules, in dependency order (dependencies first), each with the documented
# modules it depends on, directly or not: lines of "NAME DEP DEP ...".
order="$(swift package describe --type json | python3 -c '
import json, os, sys
targets = {t["name"]: t for t in json.load(sys.stdin)["targets"]}
documented = sorted(
    name for name in os.listdir("Modules")
    if os.path.isdir(f"Modules/{name}/{name}.docc") and targets.get(name, {}).get("type") == "library")
def deps(name, seen):
    for dep in targets.get(name, {}).get("target_dependencies", []) or []:
        if dep not in seen:
            seen.add(dep)
            deps(dep, seen)
    return seen
emitted = []
def emit(name):
    if name in emitted: return
    for dep in sorted(deps(name, set())):
        if dep in documented: emit(dep)
    emitted.append(name)
for name in documented: emit(name)
for name in emitted:
    print(" ".join([name] + [d for d in emitted if d in deps(name, set())]))
')"
if [[ -z "$order" ]]; then
    echo "error: no library module under Modules/ has a NAME.docc catalog" >&2
    exit 1
fi

rm -rf "$out"
mkdir -p "$out" "$graphs"
archives=()
mapfile -t modules <<<"$order"
for line in "${modules[@]}"; do
    read -r module dependencies <<<"$line"
    printf '\n==> %s\n' "$module"
    if ! swift build --scratch-path "$scratch" --target "$module" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
        -Xswiftc -emit-extension-block-symbols \
        >"$scratch/build-$module.log" 2>&1; then
        cat "$scratch/build-$module.log" >&2
        echo "error: building $module for its symbol graph failed" >&2
        exit 1
    fi

    module_graphs="$scratch/graphs-$module"
    rm -rf "$module_graphs"
    mkdir -p "$module_graphs"
    cp "$graphs/$module.symbols.json" "$module_graphs/"
    cp "$graphs/$module@"*.symbols.json "$module_graphs/" 2>/dev/null || true
    # The Snippets/ folder's samples, for the articles' @Snippet directives (Scripts/check-snippets.py).
    python3 Scripts/check-snippets.py graph "$module_graphs"

    dependency_flags=()
    for dependency in $dependencies; do
        dependency_flags+=(--dependency "$out/$dependency.doccarchive")
    done
    rm -rf "$out/$module.doccarchive"
    log="$scratch/docc-$module.log"
    if ! "$docc" convert "Modules/$module/$module.docc" \
        --additional-symbol-graph-dir "$module_graphs" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "$bundle_prefix.$module" \
        --output-path "$out/$module.doccarchive" \
        --enable-experimental-external-link-support \
        "${dependency_flags[@]}" \
        --warnings-as-errors >"$log" 2>&1; then
        grep -v '^$' "$log" >&2 || true
        echo "error: docc found problems in Modules/$module/$module.docc or in $module's doc comments (above)" >&2
        exit 1
    fi
    grep -v '^$' "$log" || true
    python3 Scripts/check-doc-topics.py "$out/$module.doccarchive" "$module_graphs" "$module"
    archives+=("$out/$module.doccarchive")
done

printf '\n==> combined archive\n'
rm -rf "$out/AppUpgrade.doccarchive"
"$docc" merge "${archives[@]}" --synthesized-landing-page-name AppUpgrade \
    --synthesized-landing-page-topics-style list --output-path "$out/AppUpgrade.doccarchive"
echo "built $out/AppUpgrade.doccarchive (${#archives[@]} modules)"

if [[ -n "$serve_port" ]]; then
    echo "serving on http://localhost:$serve_port/documentation/ (Ctrl-C stops)"
    exec python3 -m http.server "$serve_port" --bind 127.0.0.1 --directory "$out/AppUpgrade.doccarchive"
fi
