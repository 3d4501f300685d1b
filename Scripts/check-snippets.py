#!/usr/bin/env python3
"""Checks that every Swift sample of the documentation is compiled code, and feeds the samples to DocC.

The samples live in Snippets/, which SwiftPM builds as executables of the root package with every
`swift build` (so CI builds them, warnings being errors); a snippet hides the stubs it needs between
`// snippet.hide` and `// snippet.show` lines and names the parts that documents show with
`// snippet.NAME` ... `// snippet.end` (a slice), as swift-docc-plugin's snippets do.

  check (the default)  Reads README.md, CONTRIBUTING.md and every DocC catalog under Modules/ and
                       fails, naming the file and the line, when
                       - a ```swift block is not preceded by `<!-- snippet: PATH#SLICE -->` or differs
                         by a byte from that slice as DocC shows it (so that the code reads on disk,
                         on GitHub and in DocC alike, and cannot drift from the compiled snippet; DocC
                         drops the HTML comment);
                       - a `@Snippet(path:slice:)` (which an article may still use: DocC shows the
                         snippet, but the file on disk shows only the directive) or a marker names a
                         snippet or a slice that does not exist, or a slice is shown nowhere;
                       - a Package.swift sample (a block starting `// swift-tools-version:`) does not
                         load with `swift package dump-package`; such samples cannot be snippets.
  sync                 Rewrites every block under a `<!-- snippet: PATH#SLICE -->` line with its slice,
                       after a snippet changed, and turns each `@Snippet` line into such a block;
                       then run `check`.
  graph DIR            Writes the snippets' symbol graph to DIR (what swift-docc-plugin's
                       snippet-extract writes), so that the toolchain's `docc` resolves `@Snippet`.

usage: check-snippets.py [check | sync | graph DIR]
"""

import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = "AppUpgrade"
GITHUB_DOCUMENTS = ["README.md", "CONTRIBUTING.md"]


class Snippet:
    """A snippet file parsed as swift-docc-plugin's SnippetParser parses it."""

    def __init__(self, path: pathlib.Path):
        self.path = path
        # The link path DocC resolves: the file's path below Snippets/, without `.swift`.
        self.name = path.relative_to(ROOT / "Snippets").with_suffix("").as_posix()
        lines = path.read_text().split("\n")
        while lines and not lines[0].strip():
            lines.pop(0)
        explanation = []
        for line in lines:
            if not line.strip() or marker(line) is not None or not line.lstrip().startswith("//"):
                break
            explanation.append(line)
        lines = lines[len(explanation) :]
        self.lines: list[str] = []
        self.slices: dict[str, range] = {}
        visible, current = True, None

        def end_slice():
            nonlocal current
            if current is not None and current[1] < len(self.lines):
                self.slices[current[0]] = range(current[1], len(self.lines))
            current = None

        for line in lines:
            kind = marker(line)
            if kind == ("show",):
                visible = True
            elif kind == ("hide",):
                visible = False
            elif kind == ("end",):
                end_slice()
            elif kind is not None:
                if visible:
                    end_slice()
                    current = (kind[1], len(self.lines))
            elif visible and not (not self.lines and not line.strip()):
                self.lines.append(line)
        end_slice()
        for name, lines_range in list(self.slices.items()):
            start, stop = lines_range.start, lines_range.stop
            while start < stop and not self.lines[start].strip():
                start += 1
            while start < stop and not self.lines[stop - 1].strip():
                stop -= 1
            self.slices[name] = range(start, stop)
        indents = [len(line) - len(line.lstrip(" ")) for line in self.lines if line]
        trim = min(indents, default=0)
        self.lines = [line[trim:] for line in self.lines]
        while self.lines and not self.lines[-1].strip():
            self.lines.pop()

    def slice_text(self, name: str) -> str:
        """The slice as DocC renders it: its lines, without their common leading whitespace."""
        lines = self.lines[self.slices[name].start : self.slices[name].stop]
        indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
        trim = min(indents, default=0)
        return "\n".join(line[trim:] for line in lines)

    def symbol(self) -> dict:
        components = ["Snippets"] + self.name.split("/")
        return {
            "identifier": {"precise": f"$snippet__{PACKAGE}.{components[-1]}", "interfaceLanguage": "swift"},
            "names": {"title": components[-1]},
            "pathComponents": components,
            "docComment": {"lines": []},
            "accessLevel": "public",
            "kind": {"identifier": "snippet", "displayName": "Snippet"},
            # A mixin is a key of the symbol itself.
            "snippet": {
                "language": "swift",
                "lines": self.lines,
                "slices": {name: [r.start, r.stop] for name, r in self.slices.items()},
            },
            "isVirtual": True,
        }


def marker(line: str):
    """`("show",)`, `("hide",)`, `("end",)`, `("slice", NAME)` for a snippet marker line, else None."""
    text = line.strip()
    if not text.startswith("//"):
        return None
    text = text[2:].lstrip()
    if not text.lower().startswith("snippet."):
        return None
    text = text[len("snippet.") :]
    for word in ("show", "hide", "end"):
        if text.lower().startswith(word):
            return (word,)
    return ("slice", text.split()[0] if text.split() else "")


def snippets() -> dict[str, Snippet]:
    return {s.name: s for s in (Snippet(p) for p in sorted((ROOT / "Snippets").rglob("*.swift")))}


def documents() -> list[pathlib.Path]:
    docs = [ROOT / name for name in GITHUB_DOCUMENTS]
    docs += sorted(ROOT.glob("Modules/*/*.docc/**/*.md"))
    return docs


FENCE = re.compile(r"^(\s*)(```+)\s*([\w+-]*)\s*$")
SNIPPET_MARKER = re.compile(r"^<!--\s*snippet:\s*([\w/.-]+)#([\w.-]+)\s*-->\s*$")
SNIPPET_DIRECTIVE = re.compile(r'^\s*@Snippet\(\s*path:\s*"([^"]+)"(?:\s*,\s*slice:\s*"([^"]+)")?\s*\)\s*$')


def code_blocks(text: str):
    """Each fenced block: (line number of the opening fence, language, content, the line before)."""
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        indent, fence, language = opening.groups()
        start = index
        index += 1
        body = []
        while index < len(lines) and lines[index].strip() != fence:
            body.append(lines[index][len(indent) :] if lines[index].startswith(indent) else lines[index].lstrip())
            index += 1
        previous = next((lines[i] for i in range(start - 1, -1, -1) if lines[i].strip()), "")
        yield start + 1, language, "\n".join(body), previous.strip()
        index += 1


def snippet_name(path: str) -> str:
    """A `@Snippet` path without the optional `PACKAGE/Snippets/` prefix, as DocC resolves it."""
    parts = [p for p in path.split("/") if p]
    if "Snippets" in parts[:2]:
        parts = parts[parts[:2].index("Snippets") + 1 :]
    return "/".join(parts)


def check_manifest(source: str) -> str | None:
    """Loads a Package.swift sample with `swift package dump-package`; the error, or None."""
    with tempfile.TemporaryDirectory() as folder:
        pathlib.Path(folder, "Package.swift").write_text(source + "\n")
        result = subprocess.run(
            ["swift", "package", "--package-path", folder, "dump-package"], capture_output=True, text=True
        )
        if result.returncode != 0:
            return (result.stderr or result.stdout).strip()
    return None


def check() -> int:
    known = snippets()
    errors, shown = [], set()
    manifests = 0
    for document in documents():
        relative = document.relative_to(ROOT)
        text = document.read_text()
        for number, language, content, previous in code_blocks(text):
            if language != "swift":
                continue
            where = f"{relative}:{number}"
            if content.lstrip().startswith("// swift-tools-version:"):
                manifests += 1
                problem = check_manifest(content)
                if problem:
                    errors.append(f"{where}: this Package.swift sample does not load:\n{problem}")
                continue
            found = SNIPPET_MARKER.match(previous)
            if not found:
                errors.append(
                    f"{where}: a Swift sample that no snippet compiles; move it into Snippets/, precede the"
                    " block with <!-- snippet: NAME#SLICE --> and run Scripts/check-snippets.py sync"
                )
                continue
            name, slice_name = found.groups()
            snippet = known.get(name)
            if snippet is None or slice_name not in snippet.slices:
                errors.append(f"{where}: no snippet slice {name}#{slice_name} in Snippets/")
                continue
            shown.add((name, slice_name))
            expected = snippet.slice_text(slice_name)
            if content != expected:
                errors.append(
                    f"{where}: this block differs from the compiled snippet {snippet.path.relative_to(ROOT)}"
                    f" (slice {slice_name}); copy the slice here exactly:\n{expected}"
                )
        for number, line in enumerate(text.split("\n"), start=1):
            for path, slice_name in SNIPPET_DIRECTIVE.findall(line):
                where = f"{relative}:{number}"
                name = snippet_name(path)
                snippet = known.get(name)
                if snippet is None:
                    errors.append(f'{where}: @Snippet(path: "{path}"): no snippet Snippets/{name}.swift')
                elif not slice_name:
                    shown.update((name, s) for s in snippet.slices)
                elif slice_name not in snippet.slices:
                    errors.append(f'{where}: @Snippet(path: "{path}", slice: "{slice_name}"): no such slice')
                else:
                    shown.add((name, slice_name))
    for name, snippet in known.items():
        if not snippet.slices:
            errors.append(f"{snippet.path.relative_to(ROOT)}: no slice (// snippet.NAME ... // snippet.end)")
        for slice_name in snippet.slices:
            if (name, slice_name) not in shown:
                errors.append(f"{snippet.path.relative_to(ROOT)}: the slice {slice_name} is shown in no document")
    if errors:
        for error in errors:
            print(f"error: {error}", file=sys.stderr)
        return 1
    slices = sum(len(s.slices) for s in known.values())
    print(f"snippets: {len(known)} files, {slices} slices, each shown; {manifests} Package.swift samples load")
    return 0


def sync() -> int:
    """Copies each marked slice into the block under its marker, in every document; a `@Snippet` line
    of an article becomes such a marker and block."""
    known = snippets()
    for document in documents():
        lines = document.read_text().split("\n")
        changed = False
        for number in range(len(lines) - 1, -1, -1):
            directive = SNIPPET_DIRECTIVE.match(lines[number])
            snippet = known.get(snippet_name(directive.group(1))) if directive else None
            if snippet is None:
                continue
            name = snippet_name(directive.group(1))
            slice_names = [directive.group(2)] if directive.group(2) else list(snippet.slices)
            if any(slice_name not in snippet.slices for slice_name in slice_names):
                continue
            block = []
            for slice_name in slice_names:
                block += ([""] if block else []) + [f"<!-- snippet: {name}#{slice_name} -->", "```swift", "```"]
            lines[number : number + 1] = block
            changed = True
        index = 0
        while index < len(lines):
            found = SNIPPET_MARKER.match(lines[index].strip())
            opening = FENCE.match(lines[index + 1]) if found and index + 1 < len(lines) else None
            if not (found and opening and opening.group(3) == "swift"):
                index += 1
                continue
            name, slice_name = found.groups()
            snippet = known.get(name)
            end = index + 2
            while end < len(lines) and lines[end].strip() != opening.group(2):
                end += 1
            if snippet is None or slice_name not in snippet.slices or end == len(lines):
                index = end
                continue
            indent = opening.group(1)
            body = [indent + line if line else line for line in snippet.slice_text(slice_name).split("\n")]
            if lines[index + 2 : end] != body:
                lines[index + 2 : end] = body
                changed = True
            index = index + 3 + len(body)
        if changed:
            document.write_text("\n".join(lines))
            print(f"updated {document.relative_to(ROOT)}")
    return 0


def graph(folder: str) -> int:
    symbols = [snippet.symbol() for snippet in snippets().values()]
    document = {
        "metadata": {"formatVersion": {"major": 0, "minor": 1, "patch": 0}, "generator": "check-snippets.py"},
        "module": {"name": PACKAGE, "platform": {}, "isVirtual": True},
        "symbols": symbols,
        "relationships": [],
    }
    os.makedirs(folder, exist_ok=True)
    pathlib.Path(folder, f"{PACKAGE}-snippets.symbols.json").write_text(json.dumps(document, indent=1))
    return 0


def main() -> int:
    arguments = sys.argv[1:]
    if arguments in ([], ["check"]):
        return check()
    if arguments == ["sync"]:
        return sync()
    if len(arguments) == 2 and arguments[0] == "graph":
        return graph(arguments[1])
    print(__doc__.strip().splitlines()[-1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
