#!/usr/bin/env python3
"""Writes a copy of the kernels with an honest slowdown planted in vecadd, to check that
bench compare finds a known regression (docs/ci.md, "A planted slowdown").

usage: plant-slowdown.py KERNELS_DIR OUT_DIR [PERCENT]
Variants 2-4 (the work-group sweep, VectorAdd3/4): every work-group adds PERCENT % more
elements than its slice (default 10), wrapping past the end to the first elements, so every
point moves and computes PERCENT % more, one group as much as 48; the extra elements are the
same sums other groups write, so the output still validates. Variants 1 and 5 and every other
kernel are unchanged: their points must not regress. Run with `bench ... --kernels OUT_DIR`.
"""
import os
import shutil
import sys

FIND = """\tsize_t end = min(start + slice, (size_t)n);
\tsize_t wg = get_local_size(0);

\tfor (size_t k = start + get_local_id(0); k < end; k += wg)
\t\tout[k] = vecadd_elem(a[k], b[k], iter);
"""
REPLACE = """\tsize_t end = start + slice + slice * {pct} / 100;   /* planted: {pct} % more per group */
\tsize_t wg = get_local_size(0);

\tfor (size_t j = start + get_local_id(0); j < end; j += wg) {{
\t\tsize_t k = j < n ? j : j - n;   /* past the end: the first elements again */
\t\tout[k] = vecadd_elem(a[k], b[k], iter);
\t}}
"""


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    pct = int(sys.argv[3]) if len(sys.argv) == 4 else 10
    if not 1 <= pct <= 100:
        sys.exit("PERCENT: 1..100")
    os.makedirs(dst, exist_ok=True)
    for f in os.listdir(src):
        if f.endswith((".cl", ".h")):
            shutil.copy(os.path.join(src, f), dst)
    path = os.path.join(dst, "vecadd.cl")
    text = open(path).read()
    if text.count(FIND) != 1:
        sys.exit("plant-slowdown: vecadd.cl no longer has the loop of variants 2-4 this script changes")
    open(path, "w").write(text.replace(FIND, REPLACE.format(pct=pct)))
    print(f"{dst}: vecadd variants 2-4 do {pct} % more work per group")
    return 0


if __name__ == "__main__":
    sys.exit(main())
