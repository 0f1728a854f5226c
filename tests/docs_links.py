#!/usr/bin/env python3
"""Checks the relative links of the project's Markdown pages.

Every relative link and #anchor in README.md, CONTRIBUTING.md, docs/*.md and results/**/*.md must
resolve: the file or folder exists, and an anchor names a heading of the target page (GitHub's
rule: lower case, spaces to '-', punctuation other than '-' and '_' dropped; a repeated heading
gets -1, -2, ...). Links with a scheme (https:, mailto:) are not checked. Code spans and fenced
code blocks are skipped.

The comments of the code name files too: every path in a comment of a C, OpenCL C, Python, shell or
meson file under the source folders (a Python docstring counts as a comment) whose first folder is
one of this repository's (bench/harness/run.c, harness/run.c, tests/benchtest.py) must be a file or
folder of the repository, whole or as the end of a path; a bare file name (layers.h) must be a
file somewhere in it, or one the build makes (a meson `output :`). Not checked: a name with a
placeholder in capitals (results/suites/NAME.json, DIR/failures.csv), and another project's file,
said so by a possessive just before it (LNT's docs/schema-example.yaml, CUDA's cuda_occupancy.h).

Exit 0 when every link and path resolves, 1 listing the broken ones, 2 on usage.

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


# The folders whose code is read, and what a comment there may name.
CODE_TOPS = ('bench', 'host', 'kernels', 'tests', 'scripts', 'results', 'dist', 'debian', 'docs')
CODE_EXT = r'(?:c|h|cl|py|sh|md|json|build|in|csv|txt|xml|ya?ml|cmake|pc)'
CODE_PATH = re.compile(r"(?<![\w./@$~%*-])((?:[\w+-][\w.+-]*/)+(?:[\w+-][\w.+-]*\." + CODE_EXT +
                       r")?)(?![\w/])")
CODE_BARE = re.compile(r"(?<![\w./@$~%*<-])([A-Za-z_][\w+-]*\.(?:c|h|cl|py|sh))(?![\w/(])")
PLACEHOLDER = re.compile(r'(?<![a-z])[A-Z]{2,}(?![a-z])')
OTHERS = re.compile(r"\w's\s+$")   # "LNT's ": what follows is another project's
MESON_OUTPUT = re.compile(r"output\s*:\s*'([^']+)'")


def code_lang(path):
    """'c', 'py' or 'hash' (shell, meson): how the file writes comments; None: not code."""
    n = os.path.basename(path)
    if n.endswith(('.c', '.h', '.cl', '.c.in', '.h.in')):
        return 'c'
    if n.endswith('.py'):
        return 'py'
    if n.endswith('.sh') or n == 'meson.build':
        return 'hash'
    try:
        with open(path, encoding='utf-8') as f:
            first = f.readline()
    except (OSError, UnicodeDecodeError):
        return None
    if first.startswith('#!'):
        return 'py' if 'python' in first else 'hash' if 'sh' in first else None
    return None


def code_comments(text, kind):
    """(offset, text) of each comment of text."""
    if kind == 'c':
        pattern = r'/\*.*?\*/|//[^\n]*'
    elif kind == 'py':
        pattern = r'(?<![\'"])#[^\n]*|"""(?:.|\n)*?"""'
    else:
        pattern = r'(?:^|(?<=\s))#[^\n]*'
    for m in re.finditer(pattern, text, re.S | re.M):
        yield m.start(), m.group(0)


def code_files(root):
    found = ['meson.build'] if os.path.isfile(os.path.join(root, 'meson.build')) else []
    for top in CODE_TOPS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(('.', '__')))
            found += sorted(os.path.relpath(os.path.join(dirpath, n), root) for n in filenames)
    return found


def code_paths(root):
    """FILE:LINE: PATH for each path named in a comment that names nothing of the repository."""
    files = code_files(root)
    folders = set()
    for f in files:
        parts = f.split(os.sep)
        for i in range(1, len(parts)):
            folders.add('/'.join(parts[:i]))
    names = {os.path.basename(f) for f in files}
    langs = {f: code_lang(os.path.join(root, f)) for f in files}
    for f in files:
        if os.path.basename(f) == 'meson.build':
            with open(os.path.join(root, f), encoding='utf-8') as fh:
                names.update(os.path.basename(o) for o in MESON_OUTPUT.findall(fh.read()))
    tails = {n.split('/')[-1] for n in folders}   # harness/run.c starts with a folder's name
    paths = {f.replace(os.sep, '/') for f in files} | folders
    broken = []
    for f in files:
        kind = langs[f]
        if not kind:
            continue
        with open(os.path.join(root, f), encoding='utf-8', errors='replace') as fh:
            text = fh.read()
        for off, comment in code_comments(text, kind):
            found = [(m, True) for m in CODE_PATH.finditer(comment)]
            found += [(m, False) for m in CODE_BARE.finditer(comment)]
            for m, slashed in found:
                target = m.group(1)
                if PLACEHOLDER.search(target) or OTHERS.search(comment[:m.start(1)]):
                    continue
                if slashed:
                    if target.split('/')[0] not in tails or (
                            target.endswith('/') and target.split('/')[0] not in CODE_TOPS):
                        continue   # another project's folder, or not a path (occupancy/driver/*)
                    t = target.rstrip('/')
                    ok = t in paths or any(p.endswith('/' + t) for p in paths)
                else:
                    ok = target in names
                if not ok:
                    broken.append('%s:%d: %s (%s)' % (
                        f.replace(os.sep, '/'), text.count('\n', 0, off + m.start(1)) + 1, target,
                        'no such file or folder' if slashed else 'no file of that name'))
    return broken


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith('-')):
        sys.stderr.write(__doc__.strip().split('\n')[-1] + '\n')
        return 2
    root = argv[1] if len(argv) == 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for b in check(root) + code_paths(root):
        bt.check(False, b)
    return bt.verdict('every relative link and anchor resolves (%d pages), and every path the '
                      'code\'s comments name (%d files)'
                      % (len(pages(root)), len(code_files(root))))


if __name__ == '__main__':
    sys.exit(main(sys.argv))
