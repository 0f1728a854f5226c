#!/usr/bin/env python3
"""The tools as meson.build's bench_tools lists them, everywhere they are listed.

usage: tools_list.py BENCH SOURCE_ROOT DIST_DIR -- [NAME:WING]...

bench list --json names bench list and then exactly these tools, in this order; bench --help
lists each; each has its file bench/tools/WING/NAME.c defining NAME_tool, a manual page
bench-NAME.1 in DIST_DIR and a place in the bash completion there; and no file of
bench/tools/ outside a wing includes a wing's header other than its face (WING/WING.h).
"""
import json
import os
import re
import sys

import benchtest as bt


def main():
    bench, root, dist = sys.argv[1:4]
    tools = [t.split(":") for t in bt.after_dashes(sys.argv[4:])]
    r = bt.must_run([bench, "list", "--json"])
    listed = [c["name"] for c in json.loads(r.out) if c["kind"] == "tool"]
    want = ["list"] + [n for n, _ in tools]
    bt.check(listed == want, f"bench list --json names the tools {listed}, bench_tools {want}")
    usage = bt.must_run([bench, "--help"]).out
    with open(os.path.join(dist, "bench"), encoding="utf-8") as f:
        completion = f.read()
    for name, wing in tools:
        src = os.path.join(root, "bench", "tools", wing, name + ".c")
        with open(src, encoding="utf-8") as f:
            bt.check(f"const struct bench_tool {name}_tool" in f.read(), f"{src}: no {name}_tool")
        bt.check(re.search(rf"^  {name} ", usage, re.M), f"bench --help does not list {name}")
        bt.check(os.path.exists(os.path.join(dist, f"bench-{name}.1")), f"no page bench-{name}.1")
        bt.check(re.search(rf"\b{name}\b", completion), f"the completion does not know {name}")
    tools_dir = os.path.join(root, "bench", "tools")
    wings = {w for w in os.listdir(tools_dir) if os.path.isdir(os.path.join(tools_dir, w))}
    for d, _, files in os.walk(os.path.join(root, "bench")):
        for f in files:
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(d, f)
            here = os.path.relpath(d, tools_dir).split(os.sep)[0]
            with open(path, encoding="utf-8") as fh:
                for inc in re.findall(r'^#include "([^"]+)"', fh.read(), re.M):
                    wing, _, name = inc.rpartition("/")
                    if wing in wings and wing != here:
                        bt.check(name == wing + ".h", f"{path} includes {inc}: a wing's header "
                                 f"other than its face {wing}/{wing}.h")
    return bt.verdict(f"{len(tools)} tools listed alike")


if __name__ == "__main__":
    sys.exit(main())
