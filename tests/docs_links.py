#!/usr/bin/env python3
"""Checks the relative links of the project's Markdown pages.

Every relative link and #anchor in README.md, CONTRIBUTING.md, docs/*.md and results/**/*.md must
resolve: the file or folder exists, and an anchor names a heading of the target page (GitHub's
rule: lower case, spaces to '-', punctuation other than '-' and '_' dropped; a repeated heading
gets -1, -2, ...). Links with a scheme (https:, mailto:) are not checked. Code spans and fenced
code blocks are skipped. Exit 0 when every link resolves, 1 listing the broken ones, 2 on usage.

usage: tests/docs_links.py [ROOT]   (default: the repository holding this script)
"""
import os
import re
import sys

import benchtest as bt

INLINE = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
REFDEF = re.compile(r'^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+["\'(].*)?$')
HEADING = re.compile(r'^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$')
FENCE = re.compile(r'^\s*(`{3,}|~{3,})')
HTML_ANCHOR = re.compile(r'<a\s+(?:name|id)="([^"]+)"', re.I)
SCHEME = re.compile(r'^[a-zA-Z][a-zA-Z0-9+.-]*:')


def pages(root):
    found = []
    for name in ('README.md', 'CONTRIBUTING.md'):
        if os.path.isfile(os.path.join(root, name)):
            found.append(name)
    docs = os.path.join(root, 'docs')
    if os.path.isdir(docs):
        found += sorted('docs/' + n for n in os.listdir(docs) if n.endswith('.md'))
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, 'results')):
        dirnames.sort()
        for n in sorted(filenames):
            if n.endswith('.md'):
                found.append(os.path.relpath(os.path.join(dirpath, n), root))
    return found


def lines_outside_code(text):
    """(line number, line with code spans blanked) for every line outside fenced blocks."""
    fence = None
    for i, line in enumerate(text.split('\n'), 1):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        yield i, re.sub(r'(`+)(?:(?!\1).)+?\1', lambda c: ' ' * len(c.group(0)), line)


def slug(heading):
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)   # a link: its text
    text = re.sub(r'<[^>]+>', '', text)                          # inline HTML
    text = text.lower().replace('`', '')
    text = ''.join(c for c in text if c.isalnum() or c in ' -_')
    return text.replace(' ', '-')


def anchors(path, cache):
    if path not in cache:
        seen = {}
        found = set()
        with open(path, encoding='utf-8') as f:
            text = f.read()
        for _, line in lines_outside_code(text):
            for a in HTML_ANCHOR.findall(line):
                found.add(a)
        fence = None
        for line in text.split('\n'):
            m = FENCE.match(line)
            if fence:
                if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                    fence = None
                continue
            if m:
                fence = m.group(1)
                continue
            h = HEADING.match(line)
            if not h:
                continue
            s = slug(h.group(2))
            n = seen.get(s, 0)
            seen[s] = n + 1
            found.add(s if n == 0 else '%s-%d' % (s, n))
        cache[path] = found
    return cache[path]


def check(root):
    broken = []
    cache = {}
    for page in pages(root):
        full = os.path.join(root, page)
        with open(full, encoding='utf-8') as f:
            text = f.read()
        for lineno, line in lines_outside_code(text):
            targets = [m.group(1) for m in INLINE.finditer(line)]
            m = REFDEF.match(line)
            if m:
                targets.append(m.group(1))
            for target in targets:
                if SCHEME.match(target) or target.startswith('//'):
                    continue
                path, _, anchor = target.partition('#')
                dest = os.path.normpath(os.path.join(os.path.dirname(full), path)) if path else full
                where = '%s:%d: %s' % (page, lineno, target)
                if not os.path.exists(dest):
                    broken.append(where + ' (no such file)')
                    continue
                if not anchor:
                    continue
                if os.path.isdir(dest) or not dest.endswith('.md'):
                    broken.append(where + ' (an anchor into a file that is not Markdown)')
                elif anchor not in anchors(dest, cache):
                    broken.append(where + ' (no heading with that anchor)')
    return broken


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith('-')):
        sys.stderr.write(__doc__.strip().split('\n')[-1] + '\n')
        return 2
    root = argv[1] if len(argv) == 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for b in check(root):
        bt.check(False, b)
    return bt.verdict('every relative link and anchor resolves (%d pages)' % len(pages(root)))


if __name__ == '__main__':
    sys.exit(main(sys.argv))
