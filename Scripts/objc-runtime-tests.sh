#!/usr/bin/env bash
# The real-runtime test of UpgradeObjC: compiles the Objective-C steps of Tests/ObjCSteps (a class of
# the naive pattern's shape, its categories in files of their own, and a class of malformed step
# methods) with the toolchain's clang against GCC's Objective-C runtime (libobjc, as Debian's GNUstep
# uses) and GNUstep Base (for NSAutoreleasePool), into one shared library, linked with a static
# library of one more category (Tests/ObjCSteps/StaticLibrary) without --whole-archive, the ELF
# linker's -ObjC, so that the linker leaves that category out as Apple's does; then runs
# `objc-runtime-tester check`, which loads it (RTLD_LOCAL, then RTLD_GLOBAL) in one process per launch
# and checks what each launch of an upgrader over a file store does.
#
# usage: Scripts/objc-runtime-tests.sh
#
# Linux only. Installs Debian's gobjc, gnustep-base-runtime, libgnustep-base-dev and gnustep-make when
# they are missing (as root, with apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'objc-runtime-tests: %s\n' "$*"; }
give_up() {
    printf 'objc-runtime-tests: error: %s\n' "$*" >&2
    exit 1
}
[ "$(uname -s)" = Linux ] || give_up "Linux only (on Apple platforms the system's runtime is reviewed, not tested here)"

packages=(gobjc gnustep-base-runtime libgnustep-base-dev gnustep-make)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    say "installing ${missing[*]} (Debian packages)"
    command -v apt-get >/dev/null || give_up "${missing[*]} missing and there is no apt-get to install them"
    install_log=$(mktemp)
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } \
        >"$install_log" 2>&1; then
        tail -n 20 "$install_log" >&2
        rm -f "$install_log"
        give_up "apt-get install ${missing[*]} failed"
    fi
    rm -f "$install_log"
fi

# The toolchain's clang, and the objc/*.h headers that gobjc installs under GCC's own include folder.
clang="$(dirname "$(command -v swift)")/clang"
[ -x "$clang" ] || give_up "no clang beside swift ($clang)"
gcc_include=$(gcc -print-file-name=include)
[ -f "$gcc_include/objc/runtime.h" ] || give_up "no objc/runtime.h under GCC's include folder $gcc_include (gobjc)"
libobjc=$(gcc -print-file-name=libobjc.so)
[ -f "$libobjc" ] || give_up "no libobjc.so for GCC ($libobjc; libobjc-*-dev)"
base=""
for candidate in /usr/lib/libgnustep-base.so "/usr/lib/$(gcc -dumpmachine)/libgnustep-base.so"; do
    [ -e "$candidate" ] && base=$candidate && break
done
[ -n "$base" ] || give_up "no libgnustep-base.so (libgnustep-base-dev)"

out=.build/objc-runtime
mkdir -p "$out"
library="$out/libXXAppUpdater.so"
archive="$out/libXXLateSteps.a"
say "compiling Tests/ObjCSteps/StaticLibrary/*.m into $archive"
rm -f "$archive" "$out"/*.o
for source in Tests/ObjCSteps/StaticLibrary/*.m; do
    object="$out/$(basename "$source" .m).o"
    "$clang" -fobjc-runtime=gcc -isystem "$gcc_include" -Wall -Werror -fPIC -c "$source" -o "$object"
    ar rcs "$archive" "$object"
done

say "compiling Tests/ObjCSteps/*.m with $clang -fobjc-runtime=gcc into $library"
"$clang" -fobjc-runtime=gcc -isystem "$gcc_include" -Wall -Werror -fPIC -shared \
    Tests/ObjCSteps/*.m -o "$library" "$archive" "$libobjc" "$base"
# The same, with the whole static library linked in, as -ObjC does on Apple platforms.
whole="$out/libXXAppUpdaterWholeArchive.so"
"$clang" -fobjc-runtime=gcc -isystem "$gcc_include" -Wall -Werror -fPIC -shared \
    Tests/ObjCSteps/*.m -o "$whole" -Wl,--whole-archive "$archive" -Wl,--no-whole-archive "$libobjc" "$base"

say "building objc-runtime-tester"
swift build --product objc-runtime-tester 2>&1 | tail -n 1
tester="$(swift build --show-bin-path)/objc-runtime-tester"
"$tester" check --library "$PWD/$library" --whole-archive-library "$PWD/$whole"
