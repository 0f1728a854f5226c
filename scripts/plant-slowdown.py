#!/usr/bin/env python3
"""Writes a copy of the kernels with an honest slowdown planted in one or more benchmark
families, to measure what bench compare and bench suite's confirmation make of a known
regression (docs/regression.md, "Planted slowdowns").

usage: plant-slowdown.py KERNELS_DIR OUT_DIR [PERCENT] [--family F[,F...]]
       plant-slowdown.py --list

PERCENT is 1..50 (default 10); --family one or more of the families below, or `all`
(default vecadd). Every plant does PERCENT % more work of the kind the kernel already does,
and the output still validates:

  vecadd     variants 2-4 (the work-group sweep, VectorAdd3/4): each group's slice spread
             over 100 / (100 + PERCENT) of its work-items, the rest idle, so each working
             item makes PERCENT % more trips through its loop (the same bytes, more trips).
  stream     variants 1 and 5 (one int per work-item; the streaming row): in PERCENT of
             every 100 chunks of 1024 elements each element's add is done again for the
             element half the array away (PERCENT % more bytes read and written, the same
             values written twice).
  sg-copy    gather, strided and block: the work-groups whose index modulo 100 is at least
             100 - PERCENT also copy the slice of the group half the launch away.
  transpose  shuffle, broadcast, local and naive: the same for the tiles of a group (not the
             guide's single 16 x 16 tile, one work-group: nothing else to do).
  atomics    ops / (100 / PERCENT) more fetch-adds on the same counter, adding 0
             (-(ops >> 30): the command line keeps ops below 2^20, and the compiler cannot
             know it): global counters one after every (100 / PERCENT)-th of the loop, so
             they meet its contention; local counters and the dependent chain (each
             waiting for the one before) after the loop.
  latency    the pointer chases (global and local): after the chase, its last
             loads / (100 / PERCENT) dependent loads walked again (the most recently used
             nodes: nothing warmed for the timed chases), folded into the end position
             through -(loads >> 30) (0: loads is at most 2^28), so the chase goes on from
             where it was.
  waves      occupancy's probe (occupancy --waves, and the residency check): PERCENT %
             more rounds of the dependent chain, their result folded into the output
             through -(spin >> 30) (0: spin is at most 2^26), so the output is unchanged.

The copy is written to OUT_DIR with plant.json, which names the families, the percent and
the points each family slows ("planted": benchmark and parameter values) and the points
whose kernel changed without being the family's ("touched": the residency check's and the
barrier table's, whose spin is calibrated anew): scripts/plant-verdicts.py reads it. Run with
`bench ... --kernels OUT_DIR`. The script refuses a kernel whose text no longer has what a
plant changes, so a kernel edit cannot silently disable a plant.
"""
import json
import os
import shutil
import sys

# One block prepended to every planted kernel file: the share, the groups that work twice,
# and a zero the compiler cannot see.
HEADER = """\
/* planted by scripts/plant-slowdown.py: {pct} % more work of the kernel's own kind */
#define PLANT_PCT {pct}u
#define PLANT_EVERY {every}u
/* 0 at run time, unknown to the compiler (every bit of it): X a kernel argument the command
 * line keeps below 2^30 */
#define PLANT_ZERO(x) (0u - ((uint)(x) >> 30))
/* the work-group's linear index over the first two dimensions, and their count */
static inline size_t plant_lin(void)
{{
	return get_group_id(1) * get_num_groups(0) + get_group_id(0);
}}
static inline size_t plant_count(void)
{{
	return get_num_groups(0) * get_num_groups(1);
}}
/* 2 where this group also does the work of the group half the launch away, else 1 */
static inline uint plant_reps(void)
{{
	return plant_count() > 1 && plant_lin() % 100 >= 100 - PLANT_PCT ? 2u : 1u;
}}
/* rep 0: the group's own index in dimension d; rep 1: the other group's */
static inline size_t plant_group(uint rep, uint d)
{{
	size_t o = (plant_lin() + plant_count() / 2) % plant_count();

	if (rep == 0)
		return get_group_id(d);
	return d == 0 ? o % get_num_groups(0) : o / get_num_groups(0);
}}
"""


def edit(find, replace):
    return (find, replace)


VECADD_SWEEP = edit("""\
\tsize_t wg = get_local_size(0);

\tfor (size_t k = start + get_local_id(0); k < end; k += wg)
\t\tout[k] = vecadd_elem(a[k], b[k], iter);
""", """\
\tsize_t wg = get_local_size(0) * 100 / (100 + PLANT_PCT);
\tsize_t lid = get_local_id(0);

\tif (wg == 0)
\t\twg = 1;
\tfor (size_t k = start + lid; lid < wg && k < end; k += wg)
\t\tout[k] = vecadd_elem(a[k], b[k], iter);
""")

# For PLANT_PCT of every 100 chunks of 1024 elements, each element's add done again for an
# element handled half the launch away in time, long gone from the caches or not yet read:
# half the array away where each work-item takes one element or a run of them; in a grid-stride
# loop half the grid and half the trips away (not n / 2: a work-item striding through the array
# in two trips handles that element itself, next; not half the grid alone: a grid resident at
# once reaches it in the same trip).
STREAM_REDO = ("#define PLANT_REDO(k, half) do { if (((k) >> 10) % 100 < PLANT_PCT) { "
               "size_t k2_ = ((k) + (half)) % n; out[k2_] = vecadd_elem(a[k2_], b[k2_], iter); "
               "} } while (0)\n")
STREAM = [
    edit("""\
\tfor (size_t k = get_global_id(0); k < n; k += stride)
\t\tout[k] = vecadd_elem(a[k], b[k], iter);
""", """\
\tfor (size_t k = get_global_id(0); k < n; k += stride) {
\t\tout[k] = vecadd_elem(a[k], b[k], iter);
\t\tPLANT_REDO(k, n > stride ? stride / 2 + n / stride / 2 * stride : n / 2);
\t}
"""),
    edit("""\
\tfor (size_t k = start; k < end; k++)
\t\tout[k] = vecadd_elem(a[k], b[k], iter);
""", """\
\tfor (size_t k = start; k < end; k++) {
\t\tout[k] = vecadd_elem(a[k], b[k], iter);
\t\tPLANT_REDO(k, n / 2);
\t}
"""),
    edit("""\
\tif (i < n)
\t\tout[i] = vecadd_elem(a[i], b[i], iter);
""", """\
\tif (i < n) {
\t\tout[i] = vecadd_elem(a[i], b[i], iter);
\t\tPLANT_REDO(i, n / 2);
\t}
"""),
]

SG_COPY = [
    edit("""\
static inline size_t sg_copy_base(void)
{
\treturn ((size_t)get_group_id(0) * get_local_size(0)""", """\
static inline size_t sg_copy_base(size_t group)
{
\treturn ((size_t)group * get_local_size(0)"""),
    edit("""\
\tsize_t i = get_global_id(0) * 16;
\tuint x[16];

\tbench_record_info(info);
#pragma unroll
\tfor (uint k = 0; k < 16; k++)
\t\tx[k] = src[i + k];
#pragma unroll
\tfor (uint k = 0; k < 16; k++)
\t\tdst[i + k] = x[k];
}""", """\
\tuint x[16];

\tbench_record_info(info);
\tfor (uint rep = 0; rep < plant_reps(); rep++) {
\tsize_t i = (plant_group(rep, 0) * get_local_size(0) + get_local_id(0)) * 16;
#pragma unroll
\tfor (uint k = 0; k < 16; k++)
\t\tx[k] = src[i + k];
#pragma unroll
\tfor (uint k = 0; k < 16; k++)
\t\tdst[i + k] = x[k];
\t}
}"""),
    edit("""\
\tuint w = sg_max_size();
\tsize_t i = sg_copy_base() + sg_local_id();
\tuint x[16];

\tbench_record_info(info);
#pragma unroll
\tfor (uint k = 0; k < 16; k++)
\t\tx[k] = src[i + (size_t)k * w];
#pragma unroll
\tfor (uint k = 0; k < 16; k++)
\t\tdst[i + (size_t)k * w] = x[k];
}""", """\
\tuint w = sg_max_size();
\tuint x[16];

\tbench_record_info(info);
\tfor (uint rep = 0; rep < plant_reps(); rep++) {
\tsize_t i = sg_copy_base(plant_group(rep, 0)) + sg_local_id();
#pragma unroll
\tfor (uint k = 0; k < 16; k++)
\t\tx[k] = src[i + (size_t)k * w];
#pragma unroll
\tfor (uint k = 0; k < 16; k++)
\t\tdst[i + (size_t)k * w] = x[k];
\t}
}"""),
    edit("""\
\tsize_t base = sg_copy_base(), second = (size_t)8 * sg_max_size();
\tuint8 x, y;

\tbench_record_info(info);
\tx = sg_block_read8(src + base);
\ty = sg_block_read8(src + base + second);
\tsg_block_write8(dst + base, x);
\tsg_block_write8(dst + base + second, y);
}""", """\
\tsize_t second = (size_t)8 * sg_max_size();
\tuint8 x, y;

\tbench_record_info(info);
\tfor (uint rep = 0; rep < plant_reps(); rep++) {
\tsize_t base = sg_copy_base(plant_group(rep, 0));
\tx = sg_block_read8(src + base);
\ty = sg_block_read8(src + base + second);
\tsg_block_write8(dst + base, x);
\tsg_block_write8(dst + base + second, y);
\t}
}"""),
]

TRANSPOSE = [
    # shuffle: the whole body after the scratch, once more for the other group's sub-group
    edit("""\
\tuint g = (uint)get_group_id(0) * (uint)(get_local_size(0) / SG_WIDTH) + sg_id();
""", """\
\tfor (uint rep = 0; rep < plant_reps(); rep++) {
\tuint g = (uint)plant_group(rep, 0) * (uint)(get_local_size(0) / SG_WIDTH) + sg_id();
"""),
    edit("""\
\tTRS_STORE(v, pd, n, live && ai < n);
#endif
}
""", """\
\tTRS_STORE(v, pd, n, live && ai < n);
#endif
\t}
}
"""),
    # broadcast: the strip of a given group
    edit("""\
static inline struct tr_lane tr_lane_of(uint n)
{
\tstruct tr_lane t;
\tsize_t sg = (size_t)get_group_id(0) * (get_local_size(0) / SG_WIDTH) + sg_id();""", """\
static inline struct tr_lane tr_lane_of(uint n, size_t group)
{
\tstruct tr_lane t;
\tsize_t sg = group * (get_local_size(0) / SG_WIDTH) + sg_id();"""),
    edit("""\
\tstruct tr_lane t = tr_lane_of(n);
\tuint v[16 * TR_C], u[16 * TR_C];

\tbench_record_info(info);
""", """\
\tuint v[16 * TR_C], u[16 * TR_C];

\tbench_record_info(info);
\tfor (uint rep = 0; rep < plant_reps(); rep++) {
\tstruct tr_lane t = tr_lane_of(n, plant_group(rep, 0));
"""),
    edit("""\
\tTR_STORE(u, t, dst, n);
}
""", """\
\tTR_STORE(u, t, dst, n);
\t}
}
"""),
    # local memory: the tile of a given group, a barrier before the tile is reused
    edit("""\
\tsize_t bx = get_group_id(0) * TR_TILE, by = get_group_id(1) * TR_TILE;
\tuint tx = (uint)get_local_id(0), ty = (uint)get_local_id(1);

\tfor (uint k = 0; k < TR_TILE; k += TR_ROWS) {""", """\
\tuint tx = (uint)get_local_id(0), ty = (uint)get_local_id(1);

\tfor (uint rep = 0; rep < plant_reps(); rep++) {
\tsize_t bx = plant_group(rep, 0) * TR_TILE, by = plant_group(rep, 1) * TR_TILE;
\tfor (uint k = 0; k < TR_TILE; k += TR_ROWS) {"""),
    edit("""\
\t\t\tdst[y * n + x] = tile[tx][ty + k];
\t}
}
""", """\
\t\t\tdst[y * n + x] = tile[tx][ty + k];
\t}
\tbarrier(CLK_LOCAL_MEM_FENCE);
\t}
}
"""),
    edit("""\
\tsize_t x = get_global_id(0), y = get_global_id(1);

\tif (x < n && y < n)
\t\tdst[x * n + y] = src[y * n + x];
""", """\
\tfor (uint rep = 0; rep < plant_reps(); rep++) {
\tsize_t x = plant_group(rep, 0) * get_local_size(0) + get_local_id(0);
\tsize_t y = plant_group(rep, 1) * get_local_size(1) + get_local_id(1);

\tif (x < n && y < n)
\t\tdst[x * n + y] = src[y * n + x];
\t}
"""),
]

# Local counters and the chain: the extra fetch-adds in a loop of their own after the timed
# loop, which stays as it was (one inside it changed how compilers built the loop: local
# counters ran 2.6 times slower for 10 %). Global counters: inside the loop, after every
# PLANT_EVERY-th, so the added ones meet the loop's own contention (after it, they met less:
# on an H200 a 10 % plant slowed the neighbours pattern 6.7 %, the others 9.6-9.9 %).
ATOMICS = [
    edit("""\
\tfor (uint j = 0; j < ops; j++)
\t\tGLOBAL_ADD(p, v);
""", """\
\tfor (uint j = 0; j < ops; j++) {
\t\tGLOBAL_ADD(p, v);
\t\tif (j % PLANT_EVERY == PLANT_EVERY - 1u)
\t\t\tGLOBAL_ADD(p, PLANT_ZERO(ops));
\t}
"""),
    edit("""\
\tfor (uint j = 0; j < ops; j++)
\t\tLOCAL_ADD(&lc[slot], v);
""", """\
\tfor (uint j = 0; j < ops; j++)
\t\tLOCAL_ADD(&lc[slot], v);
\tfor (uint j = 0; j < ops / PLANT_EVERY; j++)
\t\tLOCAL_ADD(&lc[slot], PLANT_ZERO(ops));
"""),
    edit("""\
\t\tidx = (old ^ (old >> 7)) & (slots - 1u);
\t}
""", """\
\t\tidx = (old ^ (old >> 7)) & (slots - 1u);
\t}
\tfor (uint j = 0; j < ops / PLANT_EVERY; j++)
\t\tidx += GLOBAL_ADD(ctr + idx * line_words, PLANT_ZERO(ops)) & PLANT_ZERO(ops);
"""),
]

# The chase's last loads / PLANT_EVERY nodes walked again after it: the chase's loop split at
# that node (the same body, the same loads), the walk started from there and folded into the
# end position through a zero, so the chase goes on from where it was. The nodes walked again
# are the ones every chase read last, the most recently used in every cache: walking them warms
# nothing the timed chases read next. (A walk from another node of the working set did: on an
# H200 a per-CU chase near the L2's size ran 12 % faster under a 10 % plant; a walk from the
# chase's start reads what the chase behind it in a per-CU launch reads first next launch.)
LATENCY_WALK = ("#define PLANT_WALK(mem, mark, idx) do { "
                "uint c_ = (mark); "
                "for (uint j_ = 0; j_ < loads / PLANT_EVERY; j_++) c_ = (mem)[c_]; "
                "(idx) += c_ & PLANT_ZERO(loads); } while (0)\n")
LATENCY = [
    edit("""\
\tuint idx = state[g];

\tfor (uint j = 0; j < loads; j++)
\t\tidx = buf[idx];
\tstate[g] = idx;
""", """\
\tuint idx = state[g], mark, j;

\tfor (j = 0; j < loads - loads / PLANT_EVERY; j++)
\t\tidx = buf[idx];
\tmark = idx;
\tfor (; j < loads; j++)
\t\tidx = buf[idx];
\tPLANT_WALK(buf, mark, idx);
\tstate[g] = idx;
"""),
    edit("""\
\tuint idx = state[0];
\tfor (uint j = 0; j < loads; j++)
\t\tidx = lbuf[idx];
""", """\
\tuint idx = state[0], mark, j;
\tfor (j = 0; j < loads - loads / PLANT_EVERY; j++)
\t\tidx = lbuf[idx];
\tmark = idx;
\tfor (; j < loads; j++)
\t\tidx = lbuf[idx];
\tPLANT_WALK(lbuf, mark, idx);
"""),
]

WAVES = [
    edit("""\
\tv ^= (uint)gid;
#if SLM_WORDS > 0
\tif (lid < SLM_WORDS)""", """\
\t{
\t\tuint w = v;
\t\tfor (uint j = 0; j < spin * PLANT_PCT / 100; j++) {
\t\t\tw ^= w << 13;
\t\t\tw ^= w >> 17;
\t\t\tw ^= w << 5;
\t\t\tw += j;
\t\t}
\t\tv ^= (v ^ w) & PLANT_ZERO(spin);
\t}
\tv ^= (uint)gid;
#if SLM_WORDS > 0
\tif (lid < SLM_WORDS)"""),
]


def points(bench, **params):
    return {"benchmark": bench, "params": params}


# family: (file, extra definitions, edits, the points it slows, the points it touches)
FAMILIES = {
    "vecadd": ("vecadd.cl", "", [VECADD_SWEEP], [points("vecadd", variant=[2, 3, 4])], []),
    "stream": ("vecadd.cl", STREAM_REDO, STREAM, [points("vecadd", variant=[1, 5])], []),
    "sg-copy": ("sg_copy.cl", "", SG_COPY, [points("sg-copy")], []),
    # the guide's one 16 x 16 tile is a single work-group: no other group's work to do
    "transpose": ("transpose.cl", "", TRANSPOSE,
                  [points("transpose", variant=["shuffle", "shuffle-bcast", "local", "naive"])],
                  [points("transpose", variant=["guide16"])]),
    "atomics": ("atomics.cl", "", ATOMICS, [points("atomics")], []),
    "latency": ("latency.cl", LATENCY_WALK, LATENCY, [points("latency")], []),
    "waves": ("occupancy.cl", "", WAVES, [points("occupancy-waves")],
              [points("occupancy"), points("barrier")]),
}


def usage(msg):
    sys.stderr.write(f"plant-slowdown: {msg}\n{__doc__}")
    sys.exit(2)


def parse(argv):
    fams, pos = ["vecadd"], []
    it = iter(argv)
    for a in it:
        if a == "--family":
            a = next(it, None)
            if a is None:
                usage("--family needs a value")
            fams = list(FAMILIES) if a == "all" else a.split(",")
        elif a.startswith("--family="):
            v = a.split("=", 1)[1]
            fams = list(FAMILIES) if v == "all" else v.split(",")
        else:
            pos.append(a)
    if len(pos) not in (2, 3):
        usage("give KERNELS_DIR OUT_DIR [PERCENT]")
    for f in fams:
        if f not in FAMILIES:
            usage(f"--family {f!r}: allowed {', '.join(FAMILIES)} or all")
    try:
        pct = int(pos[2]) if len(pos) == 3 else 10
    except ValueError:
        usage(f"PERCENT {pos[2]!r} is not an integer: allowed 1..50")
    if not 1 <= pct <= 50:
        usage(f"PERCENT {pct}: allowed 1..50")
    return pos[0], pos[1], pct, list(dict.fromkeys(fams))


def plant(text, name, fam, edits):
    for find, replace in edits:
        if text.count(find) != 1:
            sys.exit(f"plant-slowdown: {name} no longer has, exactly once, the text the {fam} "
                     f"plant changes:\n{find}")
        text = text.replace(find, replace)
    return text


def main(argv):
    if argv == ["--list"]:
        for f, spec in FAMILIES.items():
            print(f"{f}\t{spec[0]}")
        return 0
    src, dst, pct, fams = parse(argv)
    if not os.path.isdir(src):
        usage(f"KERNELS_DIR {src!r} is not a folder")
    if os.path.realpath(src) == os.path.realpath(dst):
        usage(f"OUT_DIR {dst!r} is KERNELS_DIR: the plant writes a copy, never the kernels")
    os.makedirs(dst, exist_ok=True)
    for f in os.listdir(src):
        if f.endswith((".cl", ".h")):
            shutil.copy(os.path.join(src, f), dst)
    # the families of one file planted together, its header once
    by_file = {}
    for fam in fams:
        by_file.setdefault(FAMILIES[fam][0], []).append(fam)
    every = max(1, round(100 / pct))
    for name, group in by_file.items():
        path = os.path.join(dst, name)
        with open(path) as f:
            text = f.read()
        for fam in group:
            text = plant(text, name, fam, FAMILIES[fam][2])
        extra = "".join(FAMILIES[fam][1] for fam in group)
        with open(path, "w") as f:
            f.write(HEADER.format(pct=pct, every=every) + extra + text)
    doc = {"percent": pct, "families": fams,
           "planted": {f: FAMILIES[f][3] for f in fams},
           "touched": {f: FAMILIES[f][4] for f in fams if FAMILIES[f][4]}}
    with open(os.path.join(dst, "plant.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"{dst}: {pct} % planted in {', '.join(fams)} ({', '.join(sorted(by_file))})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
