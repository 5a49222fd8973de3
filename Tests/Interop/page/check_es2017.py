#!/usr/bin/env python3
"""Syntax gate: every file under public/js parses as an ES2017 module.

The page's baseline is Chromium 63, Safari 12 and Firefox ESR (README, "Which screens work"); a module that
does not parse there leaves a TV blank. Esprima 4.0.1 (PyPI `esprima`, a port of the JavaScript parser) parses
ES2017 and stops at later syntax: `?.`, `??`, `catch {` without a binding, numeric separators, class fields,
`for await`, async generators. It lets a few ES2018 and later forms through, so the tree it builds is walked for
those too: object spread `{...a}` and rest `{a, ...b}`, the regular-expression flag `s`, lookbehind and named
groups, and `import()`.

    .venv/bin/python Tests/Interop/page/check_es2017.py [--root public/js]

Prints `file:line: what` for each failure and exits 1; prints how many files passed and exits 0 otherwise.
"""

import argparse
import os
import re
import sys

import esprima

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
REGEX_FLAGS_ES2017 = set("gimuy")
# Regular-expression syntax from ES2018: lookbehind, named groups and their back-references, property escapes.
REGEX_ES2018 = re.compile(r"\(\?<[=!]|\(\?<[A-Za-z_$]|\\k<|\\[pP]\{")


def later_syntax(node):
    """What in `node` is later than ES2017 although Esprima 4.0.1 accepts it, or None."""
    kind = node.type
    if kind == "ObjectExpression" and any(prop.type == "SpreadElement" for prop in node.properties):
        return "object spread {...x} is ES2018"
    if kind == "ObjectPattern" and any(prop.type == "RestElement" for prop in node.properties):
        return "object rest {a, ...rest} is ES2018"
    if kind == "Import":
        return "import() is ES2020"
    if kind == "Literal" and getattr(node, "regex", None) is not None:
        flags = set(node.regex.flags or "")
        if flags - REGEX_FLAGS_ES2017:
            return f"regular-expression flag(s) {''.join(sorted(flags - REGEX_FLAGS_ES2017))} are ES2018 or later"
        if REGEX_ES2018.search(node.regex.pattern or ""):
            return f"/{node.regex.pattern}/ uses ES2018 regular-expression syntax"
    return None


def check_file(path):
    """The failures in one file as (line, message)."""
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    failures = []

    def visit(node, metadata):
        problem = later_syntax(node)
        if problem:
            failures.append((metadata.start.line, problem))

    try:
        esprima.parseModule(source, {"loc": True}, visit)
    except esprima.Error as error:
        message = str(error.message if hasattr(error, "message") else error)
        failures.append((getattr(error, "lineNumber", 0) or 0, f"not ES2017: {message}"))
    return sorted(failures)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=os.path.join(REPOSITORY, "public", "js"))
    arguments = parser.parse_args()
    files = sorted(os.path.join(folder, name) for folder, _, names in os.walk(arguments.root)
                   for name in names if name.endswith(".js"))
    if not files:
        print(f"FAIL: no .js files under {arguments.root}")
        return 1
    failed = 0
    for path in files:
        shown = os.path.relpath(path, REPOSITORY)
        for line, message in check_file(path):
            failed += 1
            print(f"{shown}:{line}: {message}")
    if failed:
        print(f"FAIL: {failed} place(s) in public/js are not ES2017")
        return 1
    print(f"PASS: {len(files)} modules under {os.path.relpath(arguments.root, REPOSITORY)} parse as ES2017")
    return 0


if __name__ == "__main__":
    sys.exit(main())
