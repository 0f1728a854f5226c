#!/usr/bin/env python3
"""Holds every #include and every call of bench/ and host/ to the order of wings and layers.

The wings stack, from the bottom: host/model/, host/, bench/cli/, bench/harness/,
bench/measure/ (any folder below it), bench/tools/ (any folder below it), bench/main.c. Inside
the harness each file names its layer (`#define HARNESS_LAYER HARNESS_LAYER_NAME`, the numbers
in bench/harness/layers.h, the lowest 1) and each layer's header its own (`#if HARNESS_LAYER <
HARNESS_LAYER_NAME`); row.h and tool.h, the harness's faces to the rows and the tools, stand
below every layer. A file may include a header of its own layer or below, and call a function
defined in its own layer or below (a function is placed where it is defined, not where it is
declared); two files of one layer may not call each other. Every arrow that points up, and every
harness file that names no layer, is printed as FILE:LINE. Exit 0 when none is found, 1 listing
them, 2 on usage.

--planted checks the checker: on a copy of bench/ and host/ with a row moved into a folder of its
own, it plants an upward call and include in the harness, an include of the harness into the
command line and a call of a tool from that row, and passes when each is reported at its line
and nothing else is.

usage: tests/layers.py [--planted] [ROOT]   (default: the repository holding this script)
"""
import os
import re
import shutil
import sys

import benchtest as bt

# The wings from the bottom up: a path belongs to the last whose prefix it starts with.
WINGS = ['host/model/', 'host/', 'bench/cli/', 'bench/harness/', 'bench/measure/', 'bench/tools/',
         'bench/main.c']
HARNESS = WINGS.index('bench/harness/')
FACES = ('row.h', 'tool.h')   # the harness's faces: below its every layer
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
LAYER_NUM = re.compile(r'^\s*#\s*define\s+HARNESS_LAYER_(\w+)\s+(\d+)\b', re.M)
FILE_LAYER = re.compile(r'^\s*#\s*define\s+HARNESS_LAYER\s+HARNESS_LAYER_(\w+)\b', re.M)
HEADER_LAYER = re.compile(r'^\s*#\s*if\s+HARNESS_LAYER\s*<\s*HARNESS_LAYER_(\w+)\b', re.M)
CALL = re.compile(r'(?<!->)(?<!\.)\b([A-Za-z_]\w*)\s*\(')
DEF_HEAD = re.compile(r'\b([A-Za-z_]\w*)\s*\((?:[^()]|\([^()]*\))*\)\s*(?:__attribute__\s*\(\(.*\)\)\s*)?$',
                      re.S)


def sources(root):
    """Every .c and .h under bench/ and host/, relative to root, sorted."""
    found = []
    for top in ('bench', 'host'):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for n in sorted(filenames):
                if n.endswith(('.c', '.h')):
                    found.append(os.path.relpath(os.path.join(dirpath, n), root).replace(os.sep, '/'))
    return found


def blank(text):
    """text with comments, strings and character literals blanked (newlines kept), so that
    line numbers still hold."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j += 1
            out.append(c + re.sub(r'[^\n]', ' ', text[i + 1:j - 1]) + c)
            i = j
            continue
        else:
            out.append(c)
            i += 1
            continue
        out.append(re.sub(r'[^\n]', ' ', text[i:j]))
        i = j
    return ''.join(out)


def split_preprocessor(code):
    """(code with preprocessor lines blanked, the preprocessor lines' text with the rest
    blanked): a macro's body calls, but declares no function."""
    plain, pre = [], []
    cont = False
    for line in code.split('\n'):
        is_pre = cont or line.lstrip().startswith('#')
        cont = is_pre and line.endswith('\\')
        plain.append(' ' * len(line) if is_pre else line)
        pre.append(line if is_pre else ' ' * len(line))
    return '\n'.join(plain), '\n'.join(pre)


def definitions(plain):
    """(name, static, offset) of every function defined in plain, and the spans of the
    bodies at file scope (their calls are the file's)."""
    defs, bodies = [], []
    depth, start, last = 0, 0, 0
    for i, c in enumerate(plain):
        if c == '{':
            if depth == 0:
                head = plain[last:i]
                m = DEF_HEAD.search(head)
                if m and '=' not in head and not re.search(r'\b(struct|enum|union)\s*\w*\s*$', head):
                    static = re.search(r'\bstatic\b', head) is not None
                    defs.append((m.group(1), static, last + m.start(1)))
                start = i
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                bodies.append((start, i))
                last = i + 1
        elif c == ';' and depth == 0:
            last = i + 1
    return defs, bodies


def line_of(text, offset):
    return text.count('\n', 0, offset) + 1


class Tree:
    def __init__(self, root):
        self.root = root
        self.files = sources(root)
        self.text = {}
        for f in self.files:
            with open(os.path.join(root, f), encoding='utf-8') as fh:
                self.text[f] = fh.read()
        self.by_base = {}
        for f in self.files:
            self.by_base.setdefault(os.path.basename(f), []).append(f)
        self.numbers = {}
        for f in self.files:
            if f.startswith('bench/harness/') and os.path.basename(f) == 'layers.h':
                self.numbers = {k: int(v) for k, v in LAYER_NUM.findall(self.text[f])}
        self.problems = []

    def resolve(self, includer, name):
        """The source an #include "name" of includer reads: beside it, else the one file of that
        name under bench/ or host/ (the build's include folders); None for a generated one."""
        here = os.path.normpath(os.path.join(os.path.dirname(includer), name)).replace(os.sep, '/')
        if here in self.text:
            return here
        cands = self.by_base.get(os.path.basename(name), [])
        same_wing = [c for c in cands if self.wing(c) == self.wing(includer)]
        if len(cands) == 1:
            return cands[0]
        return same_wing[0] if len(same_wing) == 1 else None

    def wing(self, f):
        w = None
        for i, prefix in enumerate(WINGS):
            if f == prefix or (prefix.endswith('/') and f.startswith(prefix)):
                w = i
        return w

    def rank(self, f):
        """(wing, layer inside the harness) of f; None where a harness file names no layer."""
        w = self.wing(f)
        if w != HARNESS:
            return (w, 0)
        if os.path.basename(f) in FACES or os.path.basename(f) == 'layers.h':
            return (w, 0)
        pat = FILE_LAYER if f.endswith('.c') else HEADER_LAYER
        m = pat.search(self.text[f])
        if not m or m.group(1) not in self.numbers:
            return None
        return (w, self.numbers[m.group(1)])

    def name(self, f):
        r = self.rank(f)
        if r is None:
            return f
        if r[0] == HARNESS and r[1]:
            layer = [k for k, v in self.numbers.items() if v == r[1]][0].lower()
            return '%s (the harness\'s layer %s)' % (f, layer)
        return '%s (%s)' % (f, WINGS[r[0]].rstrip('/') if r[0] is not None else '?')


def check(root):
    t = Tree(root)
    problems = []
    for f in t.files:
        if t.wing(f) == HARNESS and t.rank(f) is None:
            problems.append('%s:1: a harness file that names no layer (%s)' % (
                f, '#define HARNESS_LAYER HARNESS_LAYER_NAME before its includes' if f.endswith('.c')
                else '#if HARNESS_LAYER < HARNESS_LAYER_NAME, #error'))
    # the includes
    for f in t.files:
        rf = t.rank(f)
        for m in INCLUDE.finditer(t.text[f]):
            h = t.resolve(f, m.group(1))
            rh = t.rank(h) if h else None
            if rf is None or rh is None:
                continue
            if rh > rf:
                problems.append('%s:%d: includes %s, a layer above %s' % (
                    f, line_of(t.text[f], m.start()), t.name(h), t.name(f)))
    # the calls: each function placed where it is defined
    defined, code = {}, {}
    for f in t.files:
        blanked = blank(t.text[f])
        plain, pre = split_preprocessor(blanked)
        defs, bodies = definitions(plain)
        code[f] = (plain, pre, defs, bodies)
        for name, static, _ in defs:
            if not static:
                defined.setdefault(name, set()).add(f)
    calls = {}
    for f in t.files:
        plain, pre, defs, bodies = code[f]
        own = {d[0] for d in defs}
        spans = [plain[a:b] for a, b in bodies]
        offsets = [a for a, _ in bodies]
        found = []
        for base, text in list(zip(offsets, spans)) + [(0, pre)]:
            for m in CALL.finditer(text):
                name = m.group(1)
                if name in own or name not in defined:
                    continue
                for g in defined[name]:
                    found.append((g, name, line_of(t.text[f], base + m.start())))
        for g, name, line in found:
            if g == f or (os.path.splitext(g)[0] == os.path.splitext(f)[0]):
                continue
            calls.setdefault((f, g), (name, line))
    for (f, g), (name, line) in sorted(calls.items()):
        rf, rg = t.rank(f), t.rank(g)
        if rf is None or rg is None:
            continue
        if rg > rf:
            problems.append('%s:%d: calls %s of %s, a layer above %s' % (
                f, line, name, t.name(g), t.name(f)))
        elif rg == rf and rf[0] == HARNESS and (g, f) in calls and f < g:
            problems.append('%s:%d: calls %s of %s, which calls %s back (%s:%d): two files of '
                            'one layer' % (f, line, name, g, calls[(g, f)][0], g, calls[(g, f)][1]))
    return problems, t


def append(path, text, after=None):
    """Adds text to the end of path (after the line `after`, where given); its line number."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    at = lines.index(after) + 1 if after else len(lines)
    lines[at:at] = text.split('\n')
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines))
    return at + 1 + next(i for i, t in enumerate(text.split('\n')) if 'PLANTED' in t)


def planted(root):
    with bt.tmpdir() as d:
        for top in ('bench', 'host'):
            shutil.copytree(os.path.join(root, top), os.path.join(d, top))
        flat = os.path.join(d, 'bench/measure/vecadd.c')
        if os.path.exists(flat):   # a row of the flat folder, moved into a folder of its own
            os.makedirs(os.path.join(d, 'bench/measure/vecadd'), exist_ok=True)
            row = 'bench/measure/vecadd/vecadd.c'
            os.rename(flat, os.path.join(d, row))
        else:                      # the row's own folder: its first file
            row = 'bench/measure/vecadd/' + sorted(
                f for f in os.listdir(os.path.join(d, 'bench/measure/vecadd')) if f.endswith('.c'))[0]
        # the file that defines suite_free, wherever the suite wing keeps it
        suite_file = next(os.path.relpath(os.path.join(w, f), d)
                          for w, _, fs in os.walk(os.path.join(d, 'bench/tools')) for f in fs
                          if f.endswith('.c') and
                          '\nvoid suite_free(' in open(os.path.join(w, f)).read())
        want = {   # the includes first: a line planted above a call moves it
            ('bench/harness/views.c', append(os.path.join(d, 'bench/harness/views.c'),
             '#include "run.h"   /* PLANTED */', '#include "views.h"')):
            'includes bench/harness/run.h',
            ('bench/harness/views.c', append(os.path.join(d, 'bench/harness/views.c'),
             '\nvoid planted_up(void)\n{\n\tbench_multi_run(NULL);   /* PLANTED */\n}')):
            'calls bench_multi_run of bench/harness/multi.c',
            ('bench/cli/mem.c', append(os.path.join(d, 'bench/cli/mem.c'),
             '#include "row.h"   /* PLANTED */', '#include "mem.h"')):
            'includes bench/harness/row.h',
            (row, append(os.path.join(d, row),
             '\nvoid planted_tool(void)\n{\n\tsuite_free(NULL);   /* PLANTED */\n}')):
            'calls suite_free of ' + suite_file,
        }
        problems, _ = check(d)
    for (f, line), what in want.items():
        hit = [p for p in problems if p.startswith('%s:%d: %s' % (f, line, what))]
        bt.check(hit, 'not reported: %s:%d: %s' % (f, line, what))
        problems = [p for p in problems if p not in hit]
    for p in problems:
        bt.check(False, 'reported, not planted: ' + p)
    return bt.verdict('each planted arrow reported at its line (%d)' % len(want))


def main(argv):
    args = argv[1:]
    plant = '--planted' in args
    args = [a for a in args if a != '--planted']
    if len(args) > 1 or (args and args[0].startswith('-')):
        sys.stderr.write(__doc__.strip().split('\n')[-1] + '\n')
        return 2
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if plant:
        return planted(root)
    problems, t = check(root)
    for p in problems:
        bt.check(False, p)
    return bt.verdict('no include or call points up (%d files, %d harness layers)' % (
        len(t.files), len(t.numbers)))


if __name__ == '__main__':
    sys.exit(main(sys.argv))
