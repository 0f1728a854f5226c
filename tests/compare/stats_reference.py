#!/usr/bin/env python3
"""Prints the reference values hard-coded in tests/test_mwu.c and tests/test_boot.c.

Not run by the test suites: it needs scipy and numpy, which the project does not
depend on. Run it in a throwaway environment:
    python3 -m venv /tmp/sci && /tmp/sci/bin/pip install scipy numpy
    /tmp/sci/bin/python tests/compare/stats_reference.py
The values were computed with scipy 1.17.1 and numpy 2.4.6.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import benchtest as bt  # noqa: E402

try:
    import numpy as np
    from scipy import stats
except ImportError as e:
    bt.fail(f"scipy and numpy are needed (see above how to install them): {e}")

# --- the exact U distribution without ties: published two-sided 5 % critical values ---
# (reject when min(U, nm - U) <= U_crit); checked here against scipy's exact test.
CRIT = {(5, 5): 2, (8, 8): 13, (9, 9): 17, (10, 10): 23, (9, 10): 20, (12, 12): 37,
        (15, 15): 64, (20, 20): 127, (9, 20): 48, (10, 15): 39}


def samples_with_u(n, m, u):
    """x (n values) and y = 1..m with U of x == u, no ties (same rule as the C test)."""
    y = [float(j + 1) for j in range(m)]
    x = []
    left = u
    for i in range(n):
        c = min(m, left)
        left -= c
        x.append(c + 0.5 + i * 1e-3)
    assert left == 0
    return x, y


print("critical values (n, m, U_crit, p(U_crit), p(U_crit + 1)):")
for (n, m), uc in CRIT.items():
    ps = []
    for u in (uc, uc + 1):
        x, y = samples_with_u(n, m, u)
        r = stats.mannwhitneyu(x, y, method="exact")
        ps.append(r.pvalue)
    ok = ps[0] <= 0.05 < ps[1]
    print(f"  {{ {n}, {m}, {uc}, {float(ps[0])!r}, {float(ps[1])!r} }},  /* {'agrees' if ok else 'DISAGREES'} */")

# --- exact p-values of ordinary samples without ties ---
rng = np.random.default_rng(11)
print("\nno ties (scipy mannwhitneyu, method='exact'):")
NT = []
for n, m, shift in ((9, 9, 0.0), (9, 9, 1.0), (10, 12, 0.6), (12, 10, -0.3), (20, 20, 0.5),
                    (40, 40, 0.3)):
    x = np.round(rng.normal(100 + shift * 5, 5, n), 3)
    y = np.round(rng.normal(100, 5, m), 3)
    assert len(set(x) | set(y)) == n + m
    r = stats.mannwhitneyu(x, y, method="exact")
    NT.append((x, y))
    print(f"  x = {[float(v) for v in x]}\n  y = {[float(v) for v in y]}\n"
          f"  U = {float(r.statistic)!r}, p = {float(r.pvalue)!r}")

# --- exact p-values with ties: every permutation enumerated ---
def u_stat(x, y, axis=-1):
    return stats.mannwhitneyu(x, y, axis=axis, method="asymptotic").statistic


print("\nties (scipy permutation_test on U, n_resamples=inf: every split enumerated):")
for x, y in (([10, 11, 11, 12, 12, 12, 13, 14, 15], [12, 13, 13, 14, 15, 15, 15, 16, 17]),
             ([5, 5, 5, 5, 6, 6, 6, 7, 7], [5, 5, 6, 6, 6, 7, 7, 7, 7, 8]),
             ([1000, 1000, 1001, 1001, 1002, 1002, 1002, 1003, 1004, 1004],
              [1001, 1002, 1002, 1003, 1003, 1004, 1004, 1005, 1005, 1006, 1006])):
    r = stats.permutation_test((x, y), u_stat, permutation_type="independent",
                               n_resamples=np.inf, alternative="two-sided", vectorized=True)
    lo = stats.permutation_test((x, y), u_stat, permutation_type="independent",
                                n_resamples=np.inf, alternative="less", vectorized=True)
    hi = stats.permutation_test((x, y), u_stat, permutation_type="independent",
                                n_resamples=np.inf, alternative="greater", vectorized=True)
    print(f"  x = {x}\n  y = {y}\n  U = {float(r.statistic)!r}, p = {float(r.pvalue)!r}, "
          f"p_le = {float(lo.pvalue)!r}, p_ge = {float(hi.pvalue)!r}")

# --- larger tied samples: the exact distribution counted again, with Python integers ---
def exact_counts(x, y):
    """P(U <= u), P(U >= u) and the two-sided p by counting every split of the pooled
    values: a different algorithm (subsets counted by doubled midrank sum, exact integers)."""
    pooled = sorted(x + y)
    rank2 = {}
    for v in set(pooled):
        first = pooled.index(v) + 1
        last = len(pooled) - pooled[::-1].index(v)
        rank2[v] = first + last                      # twice the midrank
    n = len(x)
    ways = [dict() for _ in range(n + 1)]            # ways[k][doubled rank sum]
    ways[0][0] = 1
    for v in pooled:
        r = rank2[v]
        for k in range(n - 1, -1, -1):
            for s_, c in ways[k].items():
                ways[k + 1][s_ + r] = ways[k + 1].get(s_ + r, 0) + c
    obs = sum(rank2[v] for v in x)
    total = sum(ways[n].values())
    le = sum(c for s_, c in ways[n].items() if s_ <= obs)
    ge = sum(c for s_, c in ways[n].items() if s_ >= obs)
    u = (obs - n * (n + 1)) / 2
    return u, le / total, ge / total, min(1.0, 2 * min(le, ge) / total)


print("\nlarger, tied (exact counts with Python integers):")
trng = np.random.default_rng(5)
for n, m, shift in ((25, 30, 0.4), (30, 30, 0.0)):
    x = [int(v) for v in np.round(trng.normal(10 + shift, 1.5, n))]
    y = [int(v) for v in np.round(trng.normal(10, 1.5, m))]
    u, le, ge, p = exact_counts(x, y)
    print(f"  x = {x}\n  y = {y}\n  U = {u!r}, p = {p!r}, p_le = {le!r}, p_ge = {ge!r}")

# --- the normal approximation (used past the exact table's size) ---
print("\nlarge, tied (scipy mannwhitneyu, method='asymptotic', continuity corrected):")
x = np.round(rng.normal(1000, 20, 300))
y = np.round(rng.normal(1005, 20, 300))
r = stats.mannwhitneyu(x, y, method="asymptotic")
print(f"  x = {[int(v) for v in x]}\n  y = {[int(v) for v in y]}\n"
      f"  U = {float(r.statistic)!r}, p = {float(r.pvalue)!r}")


# --- the bootstrap interval: the same algorithm written again in Python and numpy ---
M64 = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return state, z ^ (z >> 31)


def boot(base, new, resamples, confidence, seed):
    s = seed
    ratios = []
    for _ in range(resamples):
        meds = []
        for x in (base, new):
            draw = []
            for _ in range(len(x)):
                s, z = splitmix64(s)
                draw.append(x[z % len(x)])
            meds.append(np.median(draw))
        ratios.append(meds[1] / meds[0])
    q = np.percentile(ratios, [(1 - confidence) / 2 * 100, (1 + confidence) / 2 * 100])
    return float(np.median(new) / np.median(base)), float(q[0]), float(q[1])


print("\nbootstrap (seed 0x626f6f7473747261, 2000 resamples, 95 %):")
base = [100.0, 103.0, 98.0, 101.0, 99.0, 102.0, 100.5, 97.0, 104.0, 100.0]
new = [110.0, 112.0, 108.5, 111.0, 109.0, 113.0, 110.0, 107.0, 111.5]
print(f"  ratio, lo, hi = {boot(base, new, 2000, 0.95, 0x626f6f7473747261)!r}")
print(f"  seed 1, 500 resamples, 90 %: {boot(base, new, 500, 0.90, 1)!r}")
