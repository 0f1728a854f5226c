#!/usr/bin/env python3
"""Writes a copy of the kernels with an honest slowdown planted in vecadd, to check that
bench compare finds a known regression (docs/ci.md, "A planted slowdown").

usage: plant-slowdown.py KERNELS_DIR OUT_DIR [PERCENT]
Variants 2-4 (the work-group sweep, VectorAdd3/4): every work-group does its slice with
100 / (100 + PERCENT) of its work-items (default PERCENT 10: 232 of 256, 465 of 512), the
others idle, so each working item makes PERCENT % more trips through the loop. The bytes
moved and the arithmetic stay the same and the output still validates; where the trips
bound the time (one group, or a device full of dependent chains) the point takes about
PERCENT % longer. Variants 1 and 5 and every other kernel are unchanged: their points must
not regress. Run with `bench ... --kernels OUT_DIR`.

An earlier version added PERCENT % more elements per group instead; the extra elements were
ones another group also reads, so they were often cache hits and the points slowed by 4-13 %.
"""
import os
import shutil
import sys

FIND = """\tsize_t wg = get_local_size(0);

\tfor (size_t k = start + get_local_id(0); k < end; k += wg)
\t\tout[k] = vecadd_elem(a[k], b[k], iter);
"""
REPLACE = """\t/* planted: the slice spread over 100 / (100 + {pct}) of the work-items, the rest idle */
\tsize_t wg = get_local_size(0) * 100 / (100 + {pct});
\tsize_t lid = get_local_id(0);

\tif (wg == 0)
\t\twg = 1;
\tfor (size_t k = start + lid; lid < wg && k < end; k += wg)
\t\tout[k] = vecadd_elem(a[k], b[k], iter);
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
    print(f"{dst}: vecadd variants 2-4 spread each group's work over 100 / (100 + {pct}) of its work-items")
    return 0


if __name__ == "__main__":
    sys.exit(main())
