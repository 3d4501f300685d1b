#!/usr/bin/env python3
"""Portability check: what a Mac would refuse, found on Linux.

Nothing here compiles for Apple platforms, so this reads the sources for the mistakes that only an
Apple build would report, and fails naming each one:

  availability   an API of the table below, newer than the package's deployment targets (read from
                 Package.swift), used without an `@available`/`#available` guard in scope, or outside
                 an `#if` that leaves the platforms out (Modules, Tools, Plugins, Tests);
  platform       an API that some platforms lack (Process, XMLDocument, expiring activities, exit
                 tests) compiled for one of them: libraries are built for every platform of the
                 package, tools and plugins only for the Mac (and Linux);
  test-target    an exit test outside a test target;
  counterpart    an `#if` over os(), canImport() or targetEnvironment() without an `#else` that leaves
                 a platform with no branch (Modules, Tools, Plugins; a test may exist on some
                 platforms only);
  flush          fsync or F_FULLFSYNC outside StableStorage.swift, the store's one flushing function;
  plugin-sandbox `swift package ... upgrade-sim ... --output` in a script or a document without
                 `--allow-writing-to-directory`, `--allow-writing-to-package-directory` or
                 `--disable-sandbox` (macOS's plugin sandbox refuses the write).

Comments and string literals are not code and are ignored. A line that the table flags wrongly can
say why on itself or the line above: `// portability-ok: REASON`.

usage: Scripts/check-portability.py [ROOT]    check the package at ROOT (default: this checkout)
       Scripts/check-portability.py --self-test  plant each kind of violation in a scratch package
                                                 and check that it is found, and that guarded uses
                                                 are not; compare the table with the toolchain's
                                                 interfaces where they can be found
"""

import contextlib
import io
import pathlib
import re
import shutil
import sys
import tempfile

APPLE = ["macOS", "iOS", "tvOS", "watchOS", "visionOS"]
# The platforms a line may be compiled for: the package's, Mac Catalyst (an iOS library built for the
# Mac) and Linux, where CI runs.
EVERY = APPLE + ["macCatalyst", "Linux"]
# Executables and plugins are only built for the machine that builds them.
HOSTS = ["macOS", "Linux"]
IOS_FAMILY = {"iOS", "macCatalyst", "tvOS", "watchOS", "visionOS"}


def versions(mac, ios, tv, watch, vision):
    return {"macOS": mac, "iOS": ios, "tvOS": tv, "watchOS": watch, "visionOS": vision}


SWIFT_5_9 = versions((14, 0), (17, 0), (17, 0), (10, 0), (1, 0))
SWIFT_6_0 = versions((15, 0), (18, 0), (18, 0), (11, 0), (2, 0))
SWIFT_6_1 = versions((15, 4), (18, 4), (18, 4), (11, 4), (2, 4))
SWIFT_6_2 = versions((26, 0), (26, 0), (26, 0), (26, 0), (26, 0))


class Api:
    """A table entry: what to look for, and what it needs."""

    def __init__(self, name, pattern, since=None, missing_on=(), where=("Modules", "Tools", "Plugins", "Tests"),
                 interface=None, note=""):
        self.name = name
        self.pattern = re.compile(pattern)
        self.since = since  # minimum versions on Apple platforms
        self.missing_on = set(missing_on)  # platforms that do not have it at all
        self.where = where  # top-level folders where the rule applies
        self.interface = interface  # (module, declaration pattern) to compare with the toolchain
        self.note = note


# Standard-library and Foundation APIs newer than the package's deployment targets (macOS 13, iOS 16,
# tvOS 16, watchOS 9, visionOS 1), and APIs some platforms lack. Versions are the toolchain's
# interfaces' (checked by --self-test) or Apple's documentation's.
TABLE = [
    Api("Mutex", r"\bMutex\b", SWIFT_6_0, interface=("Synchronization", r"public struct Mutex<")),
    Api("Atomic", r"\bAtomic\s*[<(.]", SWIFT_6_0, interface=("Synchronization", r"public struct Atomic<")),
    Api("AtomicLazyReference", r"\bAtomicLazyReference\b", SWIFT_6_0,
        interface=("Synchronization", r"public struct AtomicLazyReference<")),
    Api("TaskExecutor", r"\b(?:Unowned)?TaskExecutor\b", SWIFT_6_0,
        interface=("_Concurrency", r"public protocol TaskExecutor ")),
    Api("Task(executorPreference:)", r"\bexecutorPreference\s*:", SWIFT_6_0,
        interface=("_Concurrency", r"init\(name: Swift\.String\? = nil, executorPreference taskExecutor")),
    Api("withTaskExecutorPreference", r"\bwithTaskExecutorPreference\b", SWIFT_6_0,
        interface=("_Concurrency", r"func withTaskExecutorPreference<")),
    Api("globalConcurrentExecutor", r"\bglobalConcurrentExecutor\b", SWIFT_6_0,
        interface=("_Concurrency", r"var globalConcurrentExecutor")),
    Api("ExecutorJob", r"\bExecutorJob\b", SWIFT_5_9, interface=("_Concurrency", r"public struct ExecutorJob ")),
    # The serial-executor overload (`on: asUnownedSerialExecutor()`) is older and not flagged.
    Api("runSynchronously(on:)", r"\.runSynchronously\s*\((?!\s*on:\s*asUnownedSerialExecutor\(\))", SWIFT_6_0,
        interface=("_Concurrency", r"func runSynchronously\(on executor: _Concurrency\.UnownedTaskExecutor\)"),
        note="the task-executor overloads; guard any use"),
    Api("String(validating:as:)", r"\bString(?:\.init)?\s*\(\s*validating\s*:", SWIFT_6_0,
        interface=("Swift", r"public init\?<Encoding>\(validating codeUnits: some Sequence<Encoding\.CodeUnit>")),
    Api("withDiscardingTaskGroup", r"\bwith(?:Throwing)?DiscardingTaskGroup\b", SWIFT_5_9,
        interface=("_Concurrency", r"func withDiscardingTaskGroup<")),
    Api("Int128", r"\bU?Int128\b", SWIFT_6_0, interface=("Swift", r"public struct Int128 ")),
    Api("InlineArray", r"\bInlineArray\b", SWIFT_6_2, interface=("Swift", r"public struct InlineArray<")),
    Api("UTF8Span", r"\bUTF8Span\b", SWIFT_6_2, interface=("Swift", r"public struct UTF8Span")),
    Api("Task.immediate", r"\bTask(?:<[^>]*>)?\.immediate\b", SWIFT_6_2,
        interface=("_Concurrency", r"static func immediate\(")),
    Api("isolated deinit", r"\bisolated\s+deinit\b", SWIFT_6_1,
        interface=("_Concurrency", r"func _deinitOnExecutor\(")),
    Api("Observation", r"@Observable\b|\bwithObservationTracking\b", SWIFT_5_9,
        interface=("Observation", r"public func withObservationTracking<")),
    Api("Foundation Predicate", r"#Predicate\b|\bPredicate\s*<", SWIFT_5_9, note="macOS 14, iOS 17 (Foundation)"),
    Api("Foundation Expression", r"#Expression\b", SWIFT_6_0, note="macOS 15, iOS 18 (Foundation)"),
    # Platforms without the API at all. Libraries are built for every platform of the package; tools
    # and plugins only for the host. Tests are left out until their iOS guards (issue 13, item 7) land.
    Api("Process", r"\bProcess\b", missing_on=IOS_FAMILY, where=("Modules", "Tests"), note="macOS and Linux only"),
    Api("posix_spawn", r"\bposix_spawn\w*\s*\(", missing_on=IOS_FAMILY, where=("Modules", "Tests"),
        note="macOS and Linux only here (tvOS and watchOS refuse it; no app should start a process)"),
    Api("XMLDocument", r"\bXML(?:Document|Element|Node|DTD)\b", missing_on=IOS_FAMILY, where=("Modules", "Tests"),
        note="macOS, and Linux through FoundationXML, only"),
    Api("performExpiringActivity", r"\bperformExpiringActivity\b", missing_on={"macOS", "Linux"},
        note="iOS, tvOS, watchOS, visionOS and Mac Catalyst only"),
    Api("exit tests", r"\bprocessExitsWith\s*:", missing_on=IOS_FAMILY, note="macOS, Linux, Windows, FreeBSD only"),
    # The ObjectiveC module's runtime functions exist only on Apple platforms; elsewhere UpgradeObjC
    # takes the loaded runtime's functions with dlsym (ObjectiveCRuntime+Loading.swift).
    Api("Objective-C runtime", r"\b(?:objc_(?:lookUpClass|getClass|getMetaClass|msg_lookup)|object_getClass|"
        r"class_(?:copyMethodList|getClassMethod|getMethodImplementation)|method_get\w+|sel_(?:getName|registerName))"
        r"\s*\(", missing_on={"Linux"}, note="Apple platforms only (import ObjectiveC)"),
]

# Which modules `canImport` finds on each platform; None where it depends (unknown modules too).
APPLE_ALL = set(APPLE) | {"macCatalyst"}
CAN_IMPORT = {
    "Darwin": APPLE_ALL, "os": APPLE_ALL, "ObjectiveC": APPLE_ALL, "Glibc": {"Linux"}, "Musl": set(), "Android": set(), "WinSDK": set(),
    "WASILibc": set(), "Foundation": set(EVERY), "Dispatch": set(EVERY), "Testing": set(EVERY),
    "XCTest": set(EVERY), "Synchronization": set(EVERY), "Observation": set(EVERY),
    "FoundationEssentials": {"Linux"}, "FoundationXML": {"Linux"}, "FoundationNetworking": {"Linux"},
    "UIKit": {"iOS", "macCatalyst", "tvOS", "visionOS"}, "AppKit": {"macOS"}, "WatchKit": {"watchOS"},
}
OS_NAME = {"macOS": "macOS", "macCatalyst": "iOS", "iOS": "iOS", "tvOS": "tvOS", "watchOS": "watchOS",
           "visionOS": "visionOS", "Linux": "Linux"}
PLATFORM_GUARD = re.compile(r"\b(?:os|canImport|targetEnvironment)\s*\(")
FLUSH = re.compile(r"\bfsync\s*\(|\bfdatasync\s*\(|\bF_FULLFSYNC\b")
FLUSH_HOME = "Modules/UpgradeStorage/StableStorage.swift"
ESCAPE = re.compile(r"//\s*portability-ok:\s*\S.{5,}")
# Known problems in files that other work owns, reported as notes until that work fixes them:
# (path, rule) -> why. A note for an exemption that no longer matches asks for its removal.
EXEMPT: dict = {}


# ---------------------------------------------------------------------------------------------------
# Reading Swift: comments and string literals blanked (newlines and offsets kept).


def mask(source):
    """The source with the text of comments and string literals replaced by spaces."""
    out = list(source)
    n = len(source)

    def blank(start, end):
        for k in range(start, min(end, n)):
            if out[k] != "\n":
                out[k] = " "

    def skip_string(i):
        """i is at the opening quote (after any #s); returns the index after the closing delimiter."""
        hashes = 0
        j = i - 1
        while j >= 0 and source[j] == "#":
            hashes += 1
            j -= 1
        multi = source.startswith('"""', i)
        close = ('"""' if multi else '"') + "#" * hashes
        k = i + (3 if multi else 1)
        escape = "\\" + "#" * hashes
        while k < n:
            if source.startswith(escape, k):
                k += len(escape)
                if k < n and source[k] == "(":
                    k = skip_code(k + 1, ")")
                else:
                    k += 1
                continue
            if source.startswith(close, k):
                return k + len(close)
            if not multi and source[k] == "\n":
                return k  # unterminated: stop at the line's end
            k += 1
        return n

    def skip_code(i, until):
        """Code up to the matching `until` (for interpolations); returns the index after it."""
        depth = 0
        k = i
        while k < n:
            c = source[k]
            if source.startswith("//", k):
                k = source.find("\n", k)
                k = n if k < 0 else k
            elif source.startswith("/*", k):
                k = skip_block_comment(k)
            elif c == '"':
                k = skip_string(k)
            elif c == "(":
                depth += 1
                k += 1
            elif c == until and depth == 0:
                return k + 1
            elif c == ")":
                depth -= 1
                k += 1
            else:
                k += 1
        return n

    def skip_block_comment(i):
        depth = 0
        k = i
        while k < n:
            if source.startswith("/*", k):
                depth += 1
                k += 2
            elif source.startswith("*/", k):
                depth -= 1
                k += 2
                if depth == 0:
                    return k
            else:
                k += 1
        return n

    k = 0
    while k < n:
        if source.startswith("//", k):
            end = source.find("\n", k)
            end = n if end < 0 else end
            blank(k, end)
            k = end
        elif source.startswith("/*", k):
            end = skip_block_comment(k)
            blank(k, end)
            k = end
        elif source[k] == '"':
            end = skip_string(k)
            blank(k, end)
            k = end
        else:
            k += 1
    return "".join(out)


# ---------------------------------------------------------------------------------------------------
# Conditions of #if, in three-valued logic: True, False, or None (depends on more than the platform).


def tokenize_condition(text):
    return re.findall(r"\|\||&&|!|\(|\)|[A-Za-z_][A-Za-z_0-9]*\s*\([^()]*\)|[A-Za-z_][A-Za-z_0-9]*", text)


def atom_value(atom, platform):
    m = re.match(r"([A-Za-z_][A-Za-z_0-9]*)\s*(?:\(([^()]*)\))?$", atom)
    name, argument = m.group(1), (m.group(2) or "").split(",")[0].strip()
    if name == "true":
        return True
    if name == "false":
        return False
    if name == "os":
        argument = "visionOS" if argument == "xrOS" else argument
        return OS_NAME[platform] == argument
    if name == "canImport":
        where = CAN_IMPORT.get(argument)
        return None if where is None else platform in where
    if name == "targetEnvironment":
        if argument == "macCatalyst":
            return platform == "macCatalyst"
        return None
    return None  # arch, compiler, swift, hasFeature, DEBUG, ...


def evaluate(text, platform):
    tokens = tokenize_condition(text)
    position = 0

    def peek():
        return tokens[position] if position < len(tokens) else None

    def take():
        nonlocal position
        position += 1
        return tokens[position - 1]

    def primary():
        token = take()
        if token == "!":
            value = primary()
            return None if value is None else not value
        if token == "(":
            value = disjunction()
            take()
            return value
        return atom_value(token, platform)

    def conjunction():
        value = primary()
        while peek() == "&&":
            take()
            other = primary()
            value = False if value is False or other is False else (None if None in (value, other) else True)
        return value

    def disjunction():
        value = conjunction()
        while peek() == "||":
            take()
            other = conjunction()
            value = True if value is True or other is True else (None if None in (value, other) else False)
        return value

    return disjunction()


class Conditionals:
    """The #if chains of a file: which platforms compile each line, and each chain's branches."""

    DIRECTIVE = re.compile(r"^\s*#(if|elseif|else|endif)\b(.*)$")

    def __init__(self, masked):
        self.line_frames = []  # for each line: the frames (chain, branch index) enclosing it
        self.chains = []  # (first line, [conditions], has_else)
        stack = []
        for number, line in enumerate(masked.split("\n"), start=1):
            m = self.DIRECTIVE.match(line)
            if m:
                kind, rest = m.group(1), m.group(2).strip()
                if kind == "if":
                    chain = [number, [rest], False]
                    self.chains.append(chain)
                    stack.append([chain, 0])
                elif kind == "elseif" and stack:
                    stack[-1][0][1].append(rest)
                    stack[-1][1] += 1
                elif kind == "else" and stack:
                    stack[-1][0][2] = True
                    stack[-1][1] = len(stack[-1][0][1])
                elif kind == "endif" and stack:
                    stack.pop()
                self.line_frames.append([])
                continue
            self.line_frames.append([(frame[0], frame[1]) for frame in stack])

    @staticmethod
    def branch_holds(chain, index, platform):
        conditions = chain[1]
        value = True
        for k, condition in enumerate(conditions[: index + 1]):
            v = evaluate(condition, platform)
            if k < index:
                v = None if v is None else not v
            value = False if value is False or v is False else (None if None in (value, v) else True)
        return value

    def compiles(self, line, platform):
        """Whether line `line` (from 1) may be compiled for `platform`."""
        return all(self.branch_holds(c, i, platform) is not False for c, i in self.line_frames[line - 1])


# ---------------------------------------------------------------------------------------------------
# Availability guards in scope.

AVAILABLE = re.compile(r"([@#])(available|unavailable)\s*\(([^()]*)\)")


def parse_available(arguments):
    """{platform: version or 'unavailable'} from the arguments of an availability attribute."""
    items = [item.strip() for item in arguments.split(",")]
    result = {}
    if len(items) >= 2 and items[1] == "unavailable":
        for platform in (APPLE if items[0] == "*" else [items[0]]):
            result[platform] = "unavailable"
        return result
    for item in items:
        m = re.match(r"(macOS|iOS|tvOS|watchOS|visionOS)\s+(\d+)(?:\.(\d+))?", item)
        if m:
            result[m.group(1)] = (int(m.group(2)), int(m.group(3) or 0))
    return result


class Scopes:
    def __init__(self, masked):
        self.text = masked
        self.pairs = []  # (open, close, header)
        self.depth = [0] * (len(masked) + 1)
        stack = []
        boundary = -1
        depth = 0
        for k, c in enumerate(masked):
            self.depth[k] = depth
            if c == "{":
                stack.append((k, masked[boundary + 1 : k]))
                boundary = k
                depth += 1
            elif c == "}":
                if stack:
                    open_at, header = stack.pop()
                    self.pairs.append((open_at, k, header))
                boundary = k
                depth -= 1
            elif c == ";":
                boundary = k

    def guards(self, position):
        """The availability granted at `position`: a list of {platform: version} dictionaries."""
        found = []
        text = self.text
        # The declaration or statement being written, up to `position`.
        start = max(text.rfind("{", 0, position), text.rfind("}", 0, position), text.rfind(";", 0, position))
        found += [parse_available(m.group(3)) for m in AVAILABLE.finditer(text, start + 1, position)
                  if m.group(1) == "@" and m.group(2) == "available"]
        enclosing = [(o, c, h) for o, c, h in self.pairs if o < position < c]
        for open_at, _, header in enclosing:
            statement = header.strip()
            for m in AVAILABLE.finditer(header):
                if m.group(2) != "available":
                    continue
                if m.group(1) == "#" and re.match(r"guard\b", statement):
                    continue  # the else branch of a guard
                found.append(parse_available(m.group(3)))
        # `guard #available(...) else { ... }` that ended earlier in an enclosing scope (or the file).
        closes = {o: c for o, c, _ in self.pairs}
        for open_at in [-1] + [o for o, _, _ in enclosing]:
            inner = self.depth[open_at + 1] if open_at >= 0 else 0
            for m in re.finditer(r"\bguard\s+#available\s*\(([^()]*)\)", text[open_at + 1 : position]):
                at = open_at + 1 + m.start()
                otherwise = text.find("{", at)
                if self.depth[at] == inner and closes.get(otherwise, len(text)) < position:
                    found.append(parse_available(m.group(1)))
        return found


# ---------------------------------------------------------------------------------------------------
# The package.


def read_package(root):
    manifest = (root / "Package.swift").read_text()
    minimum = {}
    for m in re.finditer(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\.v(\d+)(?:_(\d+))?\)", manifest):
        minimum[m.group(1)] = (int(m.group(2)), int(m.group(3) or 0))
    for platform, first in versions((10, 13), (12, 0), (12, 0), (4, 0), (1, 0)).items():
        minimum.setdefault(platform, first)  # SwiftPM's oldest, for a platform left out
    test_targets = []
    for m in re.finditer(r"\.testTarget\(", manifest):
        end = re.search(r"\.(?:testTarget|target|executableTarget|plugin)\(|\]\s*,?\s*\w+:", manifest[m.end():])
        body = manifest[m.end() : m.end() + (end.start() if end else len(manifest))]
        name = re.search(r'name:\s*"([^"]+)"', body).group(1)
        path = re.search(r'path:\s*"([^"]+)"', body)
        test_targets.append(path.group(1) if path else f"Tests/{name}")
    return minimum, test_targets


def check(root):
    """The violations in the package at `root`: (path, line, rule, message)."""
    root = pathlib.Path(root)
    minimum, test_targets = read_package(root)
    violations = []

    def report(path, line, rule, message):
        violations.append((path, line, rule, message))

    for folder in ["Modules", "Tools", "Plugins", "Tests"]:
        for file in sorted((root / folder).rglob("*.swift")) if (root / folder).is_dir() else []:
            relative = file.relative_to(root).as_posix()
            if "/.build/" in relative:
                continue
            source = file.read_text()
            raw_lines = source.split("\n")
            masked = mask(source)
            conditionals = Conditionals(masked)
            scopes = Scopes(masked)
            line_starts = [0]
            for line in raw_lines:
                line_starts.append(line_starts[-1] + len(line) + 1)
            platforms = HOSTS if folder in ("Tools", "Plugins") else EVERY
            in_test_target = any(relative.startswith(path.rstrip("/") + "/") for path in test_targets)

            def line_of(offset):
                lo, hi = 0, len(line_starts) - 1
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    if line_starts[mid] <= offset:
                        lo = mid
                    else:
                        hi = mid - 1
                return lo + 1

            def excused(line):
                above = raw_lines[line - 2] if line >= 2 else ""
                return bool(ESCAPE.search(raw_lines[line - 1])
                            or (above.lstrip().startswith("//") and ESCAPE.search(above)))

            for api in TABLE:
                if folder not in api.where:
                    continue
                for m in api.pattern.finditer(masked):
                    line = line_of(m.start())
                    if excused(line):
                        continue
                    compiled = [p for p in platforms if conditionals.compiles(line, p)]
                    if api.name == "exit tests" and not in_test_target:
                        report(relative, line, "test-target", "an exit test outside a test target")
                        continue
                    if api.missing_on:
                        lacking = sorted(set(compiled) & api.missing_on)
                        guards = scopes.guards(m.start())
                        lacking = [p for p in lacking if not any(g.get(OS_NAME.get(p, p)) == "unavailable"
                                                                 for g in guards)]
                        if lacking:
                            report(relative, line, "platform",
                                   f"{api.name} does not exist on {', '.join(lacking)}, where this line is compiled"
                                   f" ({api.note}); put it under an #if that leaves them out")
                    if api.since:
                        apple = {"iOS" if p == "macCatalyst" else p for p in compiled if p != "Linux"}
                        needed = [p for p in APPLE if p in apple and api.since[p] > minimum[p]]
                        guards = scopes.guards(m.start())
                        missing = [p for p in needed
                                   if not any(g.get(p) == "unavailable"
                                              or (isinstance(g.get(p), tuple) and g[p] >= api.since[p])
                                              for g in guards)]
                        if missing:
                            wanted = ", ".join(f"{p} {api.since[p][0]}" + (f".{api.since[p][1]}" if api.since[p][1]
                                                                          else "") for p in missing)
                            report(relative, line, "availability",
                                   f"{api.name} needs {wanted} (the package supports older systems);"
                                   f" guard it with @available or #available{' (' + api.note + ')' if api.note else ''}")

            if folder != "Tests":
                for chain in conditionals.chains:
                    first, conditions, has_else = chain
                    if has_else or not any(PLATFORM_GUARD.search(c) for c in conditions):
                        continue
                    uncovered = [p for p in platforms
                                 if all(Conditionals.branch_holds(chain, i, p) is False for i in range(len(conditions)))]
                    if uncovered:
                        report(relative, first, "counterpart",
                               f"no branch of this #if is compiled for {', '.join(uncovered)}; add an #else"
                               " (saying why nothing is needed there, if nothing is)")

            if relative != FLUSH_HOME:
                for m in FLUSH.finditer(masked):
                    line = line_of(m.start())
                    if not excused(line):
                        report(relative, line, "flush",
                               "flush through StableStorage.flush (F_FULLFSYNC on Apple platforms), not directly")

    documents = [root / "README.md", root / "CONTRIBUTING.md", root / ".ci" / "run"]
    for pattern in ["Scripts/*.sh", "Modules/**/*.md", "Examples/*/README.md", "Plugins/**/*.swift"]:
        documents += sorted(root.glob(pattern))
    for document in documents:
        if not document.is_file() or "/.build/" in document.as_posix():
            continue
        relative = document.relative_to(root).as_posix()
        lines = document.read_text().split("\n")
        k = 0
        while k < len(lines):
            first = k
            logical = lines[k]
            while logical.rstrip().endswith("\\") and k + 1 < len(lines):
                k += 1
                logical = logical.rstrip()[:-1] + " " + lines[k]
            k += 1
            first = next((j for j in range(first, k) if re.search(r"\s--output\b", lines[j])), first)
            if (re.search(r"\bswift package\b", logical) and "upgrade-sim" in logical
                    and re.search(r"\s--output\b", logical)
                    and not re.search(r"--allow-writing-to-(?:directory|package-directory)\b|--disable-sandbox\b",
                                      logical)):
                report(relative, first + 1, "plugin-sandbox",
                       "the plugin writes --output's file: macOS's plugin sandbox refuses that without"
                       " --allow-writing-to-directory DIR (or --disable-sandbox) before the plugin's name")
    return violations


# ---------------------------------------------------------------------------------------------------
# Self-test: a scratch package with planted violations.

PLANTED_PACKAGE = """// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "Scratch",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    targets: [
        .target(name: "Lib", path: "Modules/Lib"),
        .executableTarget(name: "tool", path: "Tools/tool"),
        .target(name: "Support", path: "Tests/Support"),
        .testTarget(name: "LibTests", dependencies: ["Lib"], path: "Tests/LibTests"),
    ]
)
"""

# Each planted file: lines ending in `// BAD rule` must be reported with that rule; nothing else may.
PLANTED = {
    "Modules/Lib/Bad.swift": """
import Synchronization

// A Mutex in a comment is not code; nor is "Mutex<Int>" in a string.
let text = "Mutex<Int> \\(1 + 1) String(validating: x)"
final class Counter {
    let mutex = Mutex(0)  // BAD availability
    func f() {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            _ = Mutex(1)
        } else {
            _ = Mutex(2)  // BAD availability
        }
    }
    func g() {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
            _ = Atomic<Int>(0)  // BAD availability
            return
        }
        _ = Atomic<Int>(1)
    }
    @available(macOS 15, *)
    func h() -> Int128 { 0 }  // BAD availability
    func i() {
        let process = Process()  // BAD platform
        _ = process
    }
    func j() {
        _ = String(validating: [UInt8](), as: UTF8.self)  // portability-ok: a planted excuse for the test
        _ = String(validating: [UInt8](), as: UTF8.self)  // BAD availability
    }
    func k(fd: Int32) { _ = fsync(fd) }  // BAD flush
    func l() { _ = objc_lookUpClass("XXAppUpdater") }  // BAD platform
}
#if os(Linux)  // BAD counterpart
    let linuxOnly = 1
#endif
""",
    "Modules/Lib/Good.swift": """
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class Runner: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        UnownedJob(job).runSynchronously(on: asUnownedTaskExecutor())
    }
}

#if os(macOS) || os(Linux)
    func spawn() { _ = Process() }
    let linux = { () -> Int in
        #if os(Linux)
            return Int(bitPattern: UInt(truncatingIfNeeded: Mutex<Int>.self == Mutex<Int>.self ? 1 : 0))
        #else
            return 0
        #endif
    }
#else
    func spawn() {}
#endif

#if canImport(ObjectiveC)
    import ObjectiveC
    func methods() -> Int { autoreleasepool { class_copyMethodList(objc_lookUpClass("A"), nil) == nil ? 0 : 1 } }
#else
    func methods() -> Int { 0 }
#endif

#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    func keepAlive() { ProcessInfo.processInfo.performExpiringActivity(withReason: "x") { _ in } }
#else
    func keepAlive() {}
#endif

let nested = "a \\("b" + "Mutex<Int>") c", raw = #"Mutex<Int> \#("Atomic<Int>(0)")"#
let multiline = \"\"\"
    Mutex<Int>
    \"\"\"
/* Mutex<Int> /* nested */ Atomic<Int>(0) */

func later() {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        Task(executorPreference: globalConcurrentExecutor) { print("\\(1)") }
    }
}
""",
    "Modules/Lib/KeepAlive.swift": """
func keepAlive() { ProcessInfo.processInfo.performExpiringActivity(withReason: "x") { _ in } }  // BAD platform
""",
    "Tools/tool/Main.swift": """
import Foundation
let process = Process()
#if os(Linux) || os(Android)  // BAD counterpart
    let path = "/proc/self/exe"
#endif
#if os(Linux)
    let other = 1
#else
    let other = 2
#endif
let executor: any TaskExecutor  // BAD availability
""",
    "Tests/Support/Helpers.swift": """
func stops() async { await #expect(processExitsWith: .failure) { fatalError() } }  // BAD test-target
""",
    "Tests/LibTests/ExitTests.swift": """
#if os(macOS) || os(Linux)
    func stops() async { await #expect(processExitsWith: .failure) { fatalError() } }
#endif
func stopsEverywhere() async { await #expect(processExitsWith: .failure) { fatalError() } }  // BAD platform
#if os(Linux)
    let onlyHere = 1
#endif
""",
    "Scripts/run.sh": """
swift package upgrade-sim run Fixtures --output .build/out.xml  # BAD plugin-sandbox
swift package --allow-writing-to-directory .build upgrade-sim run Fixtures --output .build/out.xml
swift package upgrade-sim run Fixtures \\
    --format junit --output .build/out.xml  # BAD plugin-sandbox
swift package --disable-sandbox upgrade-sim run Fixtures \\
    --format junit --output .build/out.xml
swift run upgrade-sim run Fixtures --output .build/out.xml
""",
    "README.md": """
```sh
swift package upgrade-sim run Fixtures --format junit --output .build/upgrade-sim.xml  # BAD plugin-sandbox
```
""",
}


def self_test():
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        root = pathlib.Path(scratch)
        (root / "Package.swift").write_text(PLANTED_PACKAGE)
        expected = set()
        for path, text in PLANTED.items():
            file = root / path
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(text)
            for number, line in enumerate(text.split("\n"), start=1):
                m = re.search(r"BAD ([\w-]+)", line)
                if m:
                    expected.add((path, number, m.group(1)))
        found = check(root)
        got = {(path, line, rule) for path, line, rule, _ in found}
        for item in sorted(expected - got):
            failures.append(f"not found: {item[0]}:{item[1]}: {item[2]}")
        for path, line, rule, message in sorted(found):
            if (path, line, rule) not in expected:
                failures.append(f"found wrongly: {path}:{line}: {rule}: {message}")
        print(f"planted: {len(expected)} violations, {len(got & expected)} found, "
              f"{len(got - expected)} found wrongly")
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            status = run(root)
        if status != 1:
            failures.append(f"the check exited {status} on the planted violations, not 1")
    failures += compare_with_interfaces()
    for failure in failures:
        print(f"self-test: {failure}", file=sys.stderr)
    print("self-test " + ("failed" if failures else "passed"))
    return 1 if failures else 0


def compare_with_interfaces():
    """Compares the table's versions with the @available of the toolchain's module interfaces."""
    swift = shutil.which("swift")
    if not swift:
        print("table: no toolchain found; not compared with its interfaces")
        return []
    library = pathlib.Path(swift).resolve().parent.parent / "lib"
    failures = []
    compared = 0
    for api in TABLE:
        if not api.interface:
            continue
        module, declaration = api.interface
        interfaces = sorted(library.glob(f"swift*/*/{module}.swiftmodule/*.swiftinterface"))
        interfaces = [i for i in interfaces if ".private." not in i.name]
        if not interfaces:
            failures.append(f"{api.name}: no interface of {module} in {library}")
            continue
        lines = interfaces[0].read_text().split("\n")
        at = next((k for k, line in enumerate(lines) if re.search(declaration, line)), None)
        if at is None:
            failures.append(f"{api.name}: {declaration} not found in {interfaces[0]}")
            continue
        attribute = next((parse_available(m.group(3)) for line in reversed(lines[max(0, at - 8) : at + 1])
                          for m in AVAILABLE.finditer(line) if m.group(1) == "@" and "macOS" in m.group(3)), None)
        declared = {p: (attribute or {}).get(p, (1, 0) if p == "visionOS" else None) for p in APPLE}
        if declared != api.since:
            failures.append(f"{api.name}: the table says {api.since}, {interfaces[0].name} of {module} {declared}")
        compared += 1
    print(f"table: {compared} entries agree with the toolchain's interfaces" if not failures
          else f"table: {len(failures)} entries disagree with the toolchain's interfaces")
    return failures


def main():
    arguments = sys.argv[1:]
    if arguments == ["--self-test"]:
        return self_test()
    if len(arguments) > 1 or (arguments and arguments[0].startswith("-")):
        print(__doc__.strip().split("\n\n")[-1], file=sys.stderr)
        return 2
    return run(pathlib.Path(arguments[0] if arguments else pathlib.Path(__file__).resolve().parent.parent))


def run(root):
    """Checks the package at `root`, prints what it found; 0 when nothing, 1 otherwise."""
    violations = []
    exempted = set()
    for violation in check(root):
        key = (violation[0], violation[2])
        if key in EXEMPT:
            exempted.add(key)
            print(f"note: {violation[0]}:{violation[1]}: {violation[2]}: exempt for now: {EXEMPT[key]}")
        else:
            violations.append(violation)
    for path, rule in sorted(set(EXEMPT) - exempted):
        print(f"note: the exemption of {path} from {rule} matches nothing any more; remove it from EXEMPT")
    for path, line, rule, message in violations:
        print(f"{path}:{line}: {rule}: {message}")
    if violations:
        print(f"error: {len(violations)} portability problems (Scripts/check-portability.py)", file=sys.stderr)
        return 1
    print(f"portability: {len(TABLE)} APIs checked in Modules, Tools, Plugins and Tests; no problem found")
    return 0


if __name__ == "__main__":
    sys.exit(main())
