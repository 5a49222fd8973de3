#!/usr/bin/env python3
"""The shape of the tree in numbers, with the limits issue 37 set; exits 1 when one is over its limit.

- blocking waits in Sources (a semaphore, a group or queue `wait`, `queue.sync`, `sleep`/`usleep`), outside the
  blocking client (Sources/RollboardClient: its caller's thread waits for its event loop, by design);
- source files over 450 lines; targets (a folder of Sources) over 6,000 lines;
- real-time polls in the Swift tests (`eventually` and `eventuallyBlocking` call sites);
- duplicate pairs in Sources and in Tests: two places that share a run of 6 or more lines of the same shape (names,
  strings and numbers set aside; blank lines, comments, import lines and lines of fewer than four tokens not
  counted), one pair per two files
  however many runs they share; a run found in more than 8 places is a common idiom and left out.

Usage: .ci/shape_counts.py [--list] (from anywhere; reads the tree this script is in).
"""
import collections
import hashlib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMITS = {
    'blocking waits in Sources (outside the blocking client)': 0,
    'source files over 450 lines': 0,
    'targets over 6,000 lines': 0,
    'real-time polls in the Swift tests': 20,
    'duplicate pairs in Sources': 33,
    'duplicate pairs in Tests': 40,
}
RUN = 6
COMMON = 8
KEYWORDS = set('''
    associatedtype break case catch class continue default defer do else enum extension fallthrough false fileprivate
    for func guard if import in init inout internal is let nil open operator package private protocol public repeat
    rethrows return self Self static struct subscript super switch throw throws true try typealias var where while
    async await some any final lazy weak mutating override convenience nonisolated
    def elif except finally from lambda not or and pass raise with yield None True False assert global async
    then fi done esac local echo
'''.split())


def files(folder, suffixes):
    for directory, _, names in os.walk(os.path.join(ROOT, folder)):
        if '/.build' in directory or '/__pycache__' in directory:
            continue
        for name in sorted(names):
            if name.endswith(suffixes):
                yield os.path.join(directory, name)


def rel(path):
    return os.path.relpath(path, ROOT)


def blocking_waits():
    pattern = re.compile(r'\.wait\(|\.sync\s*[{(]|\busleep\(|(?<![.\w])sleep\(|DispatchSemaphore|Thread\.sleep')
    found = []
    for path in files('Sources', ('.swift',)):
        if rel(path).startswith('Sources/RollboardClient/'):
            continue
        for number, line in enumerate(open(path, encoding='utf-8'), 1):
            code = line.split('//')[0]
            if pattern.search(code):
                found.append(f'{rel(path)}:{number}: {line.strip()}')
    return found


def long_files():
    return [f'{rel(p)}: {n} lines' for p in files('Sources', ('.swift',))
            if (n := sum(1 for _ in open(p, encoding='utf-8'))) > 450]


def big_targets():
    sizes = collections.Counter()
    for path in files('Sources', ('.swift',)):
        sizes[rel(path).split('/')[1]] += sum(1 for _ in open(path, encoding='utf-8'))
    return [f'{target}: {lines} lines' for target, lines in sorted(sizes.items()) if lines > 6000], sizes


def polls():
    pattern = re.compile(r'\beventually(?:Blocking)?\s*(?:\(|\{)')
    found = []
    for path in files('Tests', ('.swift',)):
        for number, line in enumerate(open(path, encoding='utf-8'), 1):
            stripped = line.strip()
            if stripped.startswith(('///', '//')) or re.search(r'\bfunc eventually', line):
                continue
            if pattern.search(line):
                found.append(f'{rel(path)}:{number}: {stripped[:100]}')
    return found


def shape(line, path):
    text = line.strip()
    if not text:
        return None
    comment = '#' if path.endswith(('.py', '.sh')) else '//'
    if text.startswith(comment) or text.startswith(('/*', '*', '"""')):
        return None
    if re.match(r'^(?:@testable\s+)?(?:(?:public|package|internal)\s+)?import\s+\w', text) or re.match(r'^from\s+\S+\s+import\b', text):
        return None
    text = re.sub(r'#?"(?:[^"\\]|\\.)*"#?|\'(?:[^\'\\]|\\.)*\'', 'S', text)
    text = re.sub(r'\b\d[\d_.xXa-fA-FeE]*\b', '0', text)
    text = re.sub(r'\b[A-Za-z_]\w*\b', lambda m: m.group(0) if m.group(0) in KEYWORDS else 'x', text)
    text = re.sub(r'\s+', ' ', text)
    if len(re.findall(r'\w+|[^\w\s]', text)) < 4:
        return None  # a line of one to three tokens (`})`, `case x`, `return x`) is too common to make a repetition
    return text


def duplicate_pairs(folder, suffixes):
    windows = collections.defaultdict(list)
    for path in files(folder, suffixes):
        kept = []
        for number, line in enumerate(open(path, encoding='utf-8', errors='replace'), 1):
            s = shape(line, path)
            if s is not None:
                kept.append((number, s))
        for i in range(len(kept) - RUN + 1):
            key = hashlib.sha1('\n'.join(s for _, s in kept[i:i + RUN]).encode()).hexdigest()
            windows[key].append((rel(path), kept[i][0], kept[i + RUN - 1][0]))
    pairs = collections.defaultdict(list)
    for places in windows.values():
        if len(places) > COMMON:
            continue
        for a in range(len(places)):
            for b in range(a + 1, len(places)):
                first, second = sorted([places[a], places[b]])
                if first[0] == second[0] and second[1] <= first[2]:
                    continue  # overlapping runs of one file: a repeated line, not a repeated place
                pairs[(first[0], second[0])].append((first, second))
    return [f'{a} ~ {b}: {len(runs)} run(s), first at lines {runs[0][0][1]} and {runs[0][1][1]}'
            for (a, b), runs in sorted(pairs.items())]


def main():
    listing = '--list' in sys.argv
    over, sizes = big_targets()
    results = {
        'blocking waits in Sources (outside the blocking client)': blocking_waits(),
        'source files over 450 lines': long_files(),
        'targets over 6,000 lines': over,
        'real-time polls in the Swift tests': polls(),
        'duplicate pairs in Sources': duplicate_pairs('Sources', ('.swift',)),
        'duplicate pairs in Tests': duplicate_pairs('Tests', ('.swift', '.py', '.sh')),
    }
    failed = False
    for name, found in results.items():
        limit = LIMITS[name]
        verdict = 'ok' if len(found) <= limit else 'OVER'
        failed |= len(found) > limit
        print(f'{name}: {len(found)} (at most {limit}) {verdict}')
        if listing or len(found) > limit:
            for item in found:
                print('    ' + item)
    print('largest targets: ' + ', '.join(f'{t} {n}' for t, n in sizes.most_common(5)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
