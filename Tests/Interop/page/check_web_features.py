#!/usr/bin/env python3
"""API and CSS gate: the web features the page uses, against the baseline (Chromium 63, Safari 12, Firefox ESR).

`web_features.json` lists web features with the first Chromium and Safari versions that have them (facts from
MDN's browser-compat-data, cited in the table) and a regular expression that finds each in the sources: public/js
without comments, and public/css parsed into rules and declarations. A feature that is used and is newer than the
baseline fails unless its row names a fallback and the fallback is really there:

- `evidence`: a regular expression that must match in every JavaScript file that uses the feature;
- `earlier_declaration`: every declaration that uses it follows, in the same rule, a declaration of the same
  property (or an alias) whose value uses nothing newer than the baseline, or it sits inside `@supports`
  that tests it; a value that also holds var() must sit in such `@supports` (it is only found invalid when
  computed, after the plain declaration was already dropped);
- `own_rule`: every selector of a rule that uses it uses it (so an old engine drops only that rule);
- `flex_gap_margins`: page.js sets `.no-flex-gap`, and a `.no-flex-gap` rule spaces that container's items;
- `unneeded`: the row says why an engine without the feature still shows the page right (printed, not hidden).

    .venv/bin/python Tests/Interop/page/check_web_features.py [--bcd PATH-TO-browser-compat-data]

With --bcd, every row's versions are also compared with a browser-compat-data checkout. Exits 1 on any failure.
"""

import argparse
import json
import os
import re
import sys

import esprima

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def version(text):
    """A comparable version from "63", "13.1"; None for "none" or anything not a number."""
    match = re.match(r"^(\d+)(?:\.(\d+))?$", str(text))
    return (int(match.group(1)), int(match.group(2) or 0)) if match else None


def newer_than_baseline(row, baseline):
    chromium, safari = version(row["chromium"]), version(row["safari"])
    return (chromium is None or chromium > (baseline["chromium"], 0)) or (safari is None or safari > (baseline["safari"], 0))


def without_js_comments(source):
    """The source with every comment blanked (line breaks kept, so line numbers stay). A file that does not parse as
    ES2017 (check_es2017.py fails on it) has its comments blanked by a plainer, regular-expression pass."""
    try:
        comments = esprima.parseModule(source, {"comment": True, "range": True}).comments or []
    except esprima.Error:
        blank = lambda match: re.sub(r"[^\n]", " ", match.group(0))
        return re.sub(r"/\*.*?\*/|(?<![:\\\"'])//[^\n]*", blank, source, flags=re.S)
    text = list(source)
    for comment in comments:
        start, end = comment.range
        for index in range(start, end):
            if text[index] != "\n":
                text[index] = " "
    return "".join(text)


def without_css_comments(source):
    return re.sub(r"/\*.*?\*/", lambda match: re.sub(r"[^\n]", " ", match.group(0)), source, flags=re.S)


class Rule:
    """A style rule: its selector list, its declarations [(property, value, line)] and the @-rule preludes round it."""

    def __init__(self, selector, at_rules, line):
        self.selector = selector
        self.at_rules = at_rules
        self.line = line
        self.declarations = []


def parse_css(source):
    """Style rules and @-rule preludes [(prelude, line)] of a comment-free stylesheet (no strings with braces)."""
    rules, at_rules, stack = [], [], []
    buffer, buffer_line, line = "", 1, 1
    for character in source:
        if character == "\n":
            line += 1
        if character == "{":
            prelude = " ".join(buffer.split())
            if prelude.startswith("@"):
                at_rules.append((prelude, buffer_line))
                stack.append(prelude)
            else:
                rules.append(Rule(prelude, [entry for entry in stack if isinstance(entry, str)], buffer_line))
                stack.append(rules[-1])
            buffer = ""
        elif character in ";}":
            text = " ".join(buffer.split())
            if text and stack and isinstance(stack[-1], Rule) and ":" in text:
                name, _, value = text.partition(":")
                stack[-1].declarations.append((name.strip().lower(), value.strip(), buffer_line))
            elif text.startswith("@") and character == ";":
                at_rules.append((text, buffer_line))
            buffer = ""
            if character == "}" and stack:
                stack.pop()
        else:
            if not buffer.strip():
                buffer_line = line
            buffer += character
    return rules, at_rules


def selectors_of(selector_list):
    """The selectors of a list, split at top-level commas."""
    parts, depth, current = [], 0, ""
    for character in selector_list:
        depth += character == "("
        depth -= character == ")"
        if character == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += character
    return [part for part in parts + [current.strip()] if part]


class Gate:
    def __init__(self, table):
        self.table = table
        self.baseline = table["baseline"]
        self.failures = []
        self.notes = []
        self.newer_values = [re.compile(row["uses"]) for row in table["features"]
                             if row["in"] == "css-value" and newer_than_baseline(row, self.baseline)]

    def supports_covers(self, prelude, row, value):
        """Whether `@supports prelude` tests `row`'s feature, or another feature of the same value that no engine has
        before it (cq units imply min(): Chromium 105 and Safari 16 against 79 and 11.1)."""
        if re.search(row["uses"], prelude):
            return True
        for other in self.table["features"]:
            if other["in"] != "css-value" or not re.search(other["uses"], value) or not re.search(other["uses"], prelude):
                continue
            if all((version(other[b]) or (999, 0)) >= (version(row[b]) or (999, 0)) for b in ("chromium", "safari")):
                return True
        return False

    def fail(self, where, message):
        self.failures.append(f"{where}: {message}")

    # ---- JavaScript ------------------------------------------------------------------------------------------
    def check_js(self, row, files):
        pattern = re.compile(row["uses"], re.M)
        fallback = row.get("fallback", {})
        for path, source in files.items():
            hits = [source.count("\n", 0, match.start()) + 1 for match in pattern.finditer(source)]
            if not hits:
                continue
            where = f"{path}:{hits[0]}"
            if not newer_than_baseline(row, self.baseline):
                continue
            if fallback.get("unneeded"):
                self.notes.append(f"{where}: {row['feature']} without a fallback: {fallback['how']}")
            elif fallback.get("evidence"):
                if not re.search(fallback["evidence"], source):
                    self.fail(where, f"{row['feature']} (Chromium {row['chromium']}, Safari {row['safari']}) is used but "
                                     f"its fallback is not in this file ({fallback['how']}; looked for /{fallback['evidence']}/)")
            else:
                self.fail(where, f"{row['feature']} needs Chromium {row['chromium']} and Safari {row['safari']}; "
                                 f"the baseline is Chromium {self.baseline['chromium']}, Safari {self.baseline['safari']}")

    # ---- CSS -------------------------------------------------------------------------------------------------
    def check_css(self, row, path, rules, at_rules, flex_gap_rules, js_files):
        pattern = re.compile(row["uses"])
        fallback = row.get("fallback", {})
        newer = newer_than_baseline(row, self.baseline)
        kind = row["in"]

        def problem(where):
            if not newer:
                return
            if fallback.get("unneeded"):
                self.notes.append(f"{where}: {row['feature']} without a fallback: {fallback['how']}")
                return
            self.fail(where, f"{row['feature']} needs Chromium {row['chromium']} and Safari {row['safari']}; "
                             f"baseline Chromium {self.baseline['chromium']}, Safari {self.baseline['safari']}"
                             + (f" (fallback: {fallback['how']})" if fallback else ""))

        if kind == "css-at-rule":
            for prelude, line in at_rules:
                if pattern.search(prelude):
                    problem(f"{path}:{line}")
            return
        for rule in rules:
            if kind == "css-selector":
                if not pattern.search(rule.selector):
                    continue
                if newer and fallback.get("own_rule"):
                    mixed = [selector for selector in selectors_of(rule.selector) if not pattern.search(selector)]
                    if mixed:
                        self.fail(f"{path}:{rule.line}", f"{row['feature']} shares a rule with {mixed!r}: an engine without "
                                                         f"it drops the whole rule; give it a rule of its own")
                elif not fallback.get("own_rule"):
                    problem(f"{path}:{rule.line}")
                continue
            if "rule_has" in row and not any(re.search(row["rule_has"], f"{name}: {value}")
                                             for name, value, _ in rule.declarations):
                continue
            for index, (name, value, line) in enumerate(rule.declarations):
                subject = {"css-value": value, "css-property": name, "css-declaration": f"{name}: {value}"}[kind]
                if not pattern.search(subject):
                    continue
                where = f"{path}:{line}"
                if not newer:
                    continue
                if fallback.get("earlier_declaration"):
                    names = {name, *fallback.get("aliases", [])}
                    plain_before = any(other in names and not any(p.search(other_value) for p in self.newer_values)
                                       and not pattern.search(f"{other}: {other_value}")
                                       for other, other_value, _ in rule.declarations[:index])
                    in_supports = any(prelude.startswith("@supports") and self.supports_covers(prelude, row, value)
                                      for prelude in rule.at_rules)
                    if kind == "css-value" and "var(" in value and not in_supports:
                        # Valid at parse time whatever it holds, so the engine keeps it over the plain declaration
                        # and finds it invalid only when computing: the property is then unset, the fallback lost.
                        self.fail(where, f"{name}: {value} uses {row['feature']} together with var(): only @supports "
                                         f"testing {row['feature']} protects it (a plain declaration before it is lost)")
                    elif not (plain_before or in_supports):
                        self.fail(where, f"{name}: {value} uses {row['feature']} (Chromium {row['chromium']}, Safari "
                                         f"{row['safari']}) with no plain `{name}` before it in `{rule.selector}`, nor @supports")
                elif fallback.get("flex_gap_margins"):
                    block = re.match(r"\.([\w-]+?)(__|$|[\s.:>])", rule.selector.split(",")[0].strip())
                    name_part = block.group(1) if block else rule.selector
                    covered = any(name_part in selector for selector in flex_gap_rules)
                    detected = any("no-flex-gap" in source for source in js_files.values())
                    if not (covered and detected):
                        self.fail(where, f"flex gap in `{rule.selector}` (Chromium {row['chromium']}, Safari {row['safari']}) "
                                         f"needs a `.no-flex-gap` rule for `{name_part}` (found: {covered}) and page.js "
                                         f"setting .no-flex-gap (found: {detected})")
                else:
                    problem(where)

    def run(self, js_files, css_files):
        for row in self.table["features"]:
            if row["in"] == "js":
                self.check_js(row, js_files)
        for path, source in css_files.items():
            rules, at_rules = parse_css(source)
            flex_gap_rules = [rule.selector for rule in rules if rule.selector.startswith(".no-flex-gap")]
            for row in self.table["features"]:
                if row["in"].startswith("css"):
                    self.check_css(row, path, rules, at_rules, flex_gap_rules, js_files)


def check_against_bcd(table, bcd):
    """Differences between the table's versions and a browser-compat-data checkout."""
    differences = []
    for row in table["features"]:
        parts = row["bcd"].split(".")
        data = None
        for cut in range(len(parts), 0, -1):
            path = os.path.join(bcd, *parts[:cut]) + ".json"
            if os.path.exists(path):
                with open(path, encoding="utf-8") as handle:
                    data = json.load(handle)
                break
        globals_file = os.path.join(bcd, *parts[:-1], "globals.json")
        if data is None and os.path.exists(globals_file):
            with open(globals_file, encoding="utf-8") as handle:
                data = json.load(handle)
        if data is None and os.path.exists(os.path.join(bcd, "api", "_globals", parts[-1] + ".json")):
            with open(os.path.join(bcd, "api", "_globals", parts[-1] + ".json"), encoding="utf-8") as handle:
                data = json.load(handle)
            parts = ["api", parts[-1]]
        try:
            for part in parts:
                data = data[part]
            support = data["__compat"]["support"]
        except (KeyError, TypeError):
            differences.append(f"{row['bcd']}: not found in {bcd}")
            continue
        for browser in ("chromium", "safari"):
            entries = support["chrome" if browser == "chromium" else "safari"]
            entries = entries if isinstance(entries, list) else [entries]
            wanted = [entry for entry in entries if not entry.get("prefix") and not entry.get("flags")
                      and not entry.get("partial_implementation")
                      and entry.get("alternative_name") == row.get("bcd_alternative_name")]
            found = str(wanted[0].get("version_added")) if wanted else "none"
            ours = str(row[browser]).split(" ")[0]
            if found in ("False", "preview", "None"):
                found = "none"
            if found.lstrip("≤") != ours:
                differences.append(f"{row['bcd']}: {browser} {ours} in the table, {found} in browser-compat-data")
    return differences


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", default=os.path.join(HERE, "web_features.json"))
    parser.add_argument("--public", default=os.path.join(REPOSITORY, "public"))
    parser.add_argument("--bcd", help="a browser-compat-data checkout to compare the table's versions with")
    arguments = parser.parse_args()
    with open(arguments.table, encoding="utf-8") as handle:
        table = json.load(handle)
    js_files, css_files = {}, {}
    for folder, _, names in os.walk(arguments.public):
        for name in sorted(names):
            path = os.path.join(folder, name)
            shown = os.path.relpath(path, REPOSITORY)
            with open(path, encoding="utf-8", errors="replace") as handle:
                source = handle.read()
            if name.endswith(".js"):
                js_files[shown] = without_js_comments(source)
            elif name.endswith(".css"):
                css_files[shown] = without_css_comments(source)
    gate = Gate(table)
    gate.run(js_files, css_files)
    if arguments.bcd:
        gate.failures += [f"table: {difference}" for difference in check_against_bcd(table, arguments.bcd)]
    for note in sorted(set(gate.notes)):
        print(f"note: {note}")
    for failure in gate.failures:
        print(failure)
    if gate.failures:
        print(f"FAIL: {len(gate.failures)} use(s) of web features newer than Chromium {table['baseline']['chromium']} / "
              f"Safari {table['baseline']['safari']} without a fallback")
        return 1
    print(f"PASS: {len(table['features'])} features checked over {len(js_files)} scripts and {len(css_files)} stylesheet(s); "
          f"nothing newer than the baseline without its fallback")
    return 0


if __name__ == "__main__":
    sys.exit(main())
