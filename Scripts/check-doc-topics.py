#!/usr/bin/env python3
"""Checks that a module's DocC catalog curates every public symbol by hand.

DocC gathers any symbol that no Topics section lists into generated groups ("Instance Properties",
"Initializers") without a warning. This check reads the built archive and the module's symbol graphs
and fails, naming each symbol, when a public symbol of the module is not listed in a hand-written
Topics section: the catalog's root page, an extension file, an article or a doc comment.

Symbols the compiler synthesizes (default implementations inherited from standard-library
protocols, such as `!=`) are not the module's own and are not required.

usage: check-doc-topics.py ARCHIVE SYMBOL_GRAPH_DIR MODULE
"""

import json
import pathlib
import sys


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    archive, graphs, module = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]

    # The module's own symbols, from its symbol graph and its extension graphs (MODULE@Other).
    wanted = {}
    for graph in sorted(graphs.glob("*.symbols.json")):
        if graph.name != f"{module}.symbols.json" and not graph.name.startswith(f"{module}@"):
            continue
        for symbol in json.loads(graph.read_text())["symbols"]:
            precise = symbol["identifier"]["precise"]
            if "::SYNTHESIZED::" in precise:
                continue
            wanted[precise] = "/".join(symbol["pathComponents"])

    # Every page: its URL, its symbol (if any), and the URLs its hand-written Topics sections list.
    url_to_symbol = {}
    curated_urls = set()
    for page in (archive / "data" / "documentation").rglob("*.json"):
        document = json.loads(page.read_text())
        url = document.get("identifier", {}).get("url")
        external_id = document.get("metadata", {}).get("externalID")
        if url and external_id:
            url_to_symbol[url] = external_id
        for section in document.get("topicSections", []):
            if not section.get("generated", False):
                curated_urls.update(section.get("identifiers", []))

    curated = {url_to_symbol[url] for url in curated_urls if url in url_to_symbol}
    # Name each missing symbol by its link, which carries DocC's disambiguation for overloads.
    symbol_to_link = {}
    for url, precise in url_to_symbol.items():
        symbol_to_link[precise] = url.split(f"/documentation/{module}/", 1)[-1]
    # An extension of another module's type (`s:e:`, one symbol per extension block) has one page for
    # all its blocks: curating the page curates every block.
    curated_ends = {url.rsplit("/documentation/", 1)[-1] for url in curated_urls}

    def is_curated(precise, path):
        if precise in curated:
            return True
        return precise.startswith("s:e:") and any(end.endswith(f"/{path}") for end in curated_ends)

    missing = sorted(symbol_to_link.get(precise, path) for precise, path in wanted.items() if not is_curated(precise, path))
    if missing:
        print(f"error: {module}: {len(missing)} public symbol(s) are in no Topics section of", file=sys.stderr)
        print(f"  Modules/{module}/{module}.docc; list each under a Topics group:", file=sys.stderr)
        for path in missing:
            print(f"  - ``{path}``", file=sys.stderr)
        return 1
    print(f"{module}: all {len(wanted)} public symbols are curated in Topics")
    return 0


if __name__ == "__main__":
    sys.exit(main())
