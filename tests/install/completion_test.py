#!/usr/bin/env python3
"""bench's bash completion, sourced in bash and driven as bash drives it (COMP_WORDS, COMP_CWORD).

usage: completion_test.py BENCH COMPLETION

Expected answers come from `bench list --json`, `bench info --json` and `bench suite --list`:
the commands; each command's options (its own, the sub-group and the shared ones, with help);
the values of each option that takes one of a list of names (--sg-backend's too), as a word and
as --opt=value; the names left for a comma-separated list; files for --json; export's formats
then files; the devices for --device (platform and implementation names too, in any case);
the suites for bench suite; nothing for an unknown command. Exit 0, 1 naming each wrong answer, 77 without
bash.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

DRIVER = r'''
. "$1"
shift
while IFS= read -r line; do
	eval "COMP_WORDS=($line)"
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_bench
	printf '%s\n' "${COMPREPLY[@]}" "@@"
done
'''


def options(c):
    return [o for o in c["options"] + sum(c["shared_options"].values(), []) if o["help"]]


def cases(bench, cmds, files_dir):
    """(words, expected set, exact?): exact: the answer is the set; else it holds the set."""
    q = lambda ws: " ".join("'" + w + "'" for w in ws)   # noqa: E731 (bash words, none has ')
    out = [(q([bench, ""]), {c["name"] for c in cmds} | {"--help", "--version"}, True),
           (q([bench, "no-such-command", "--"]), set(), True)]
    for c in cmds:
        opts = {"--" + o["name"] for o in options(c)} | {"--help"}
        out.append((q([bench, c["name"], "--"]), opts, True))
        for o in options(c):
            if not o["names"]:   # a choice, a list, or a parser's own names (--sg-backend)
                continue
            names = set(o["names"])
            out.append((q([bench, c["name"], "--" + o["name"], ""]), names, True))
            out.append((q([bench, c["name"], "--" + o["name"], "=", ""]), names, True))
            if o["kind"] == "names":
                first = o["names"][0]
                out.append((q([bench, c["name"], "--" + o["name"], first + ","]),
                            {first + "," + n for n in names - {first}}, True))
    # bench export's first operand is its format (from its synopsis), then documents
    out.append((q([bench, "export", ""]), {"lnt", "otava"}, True))
    out.append((q([bench, "export", "o"]), {"otava"}, True))
    out.append((q([bench, "export", "lnt", os.path.join(files_dir, "do")]),
                {os.path.join(files_dir, "doc.json")}, True))
    out.append((q([bench, "vecadd", "--quiet", "--re"]), {"--reps", "--require-device"}, True))
    out.append((q([bench, "vecadd", "--sg-backend", ""]), {"intel", "khr", "nv", "emulated"}, True))
    out.append((q([bench, "export", ""]), {"lnt", "otava"}, True))
    out.append((q([bench, "export", "o"]), {"otava"}, True))
    out.append((q([bench, "export", "lnt", os.path.join(files_dir, "do")]),
                {os.path.join(files_dir, "doc.json")}, True))
    out.append((q([bench, "vecadd", "--json", os.path.join(files_dir, "do")]),
                {os.path.join(files_dir, "doc.json")}, True))
    return out


def live_cases(bench):
    q = lambda ws: " ".join("'" + w + "'" for w in ws)   # noqa: E731
    out = []
    r = subprocess.run([bench, "info", "--json"], capture_output=True, text=True)
    devices = json.loads(r.stdout) if r.returncode == 0 else []
    want = {"all", "gpu", "cpu"} | {str(d["index"]) for d in devices} | {d["name"] for d in devices} \
        | {f"{d['platform_index']}:{d['device_index']}" for d in devices}
    out.append((q([bench, "vecadd", "--device", ""]), want, False))
    # a platform's name and its implementation's (PoCL), which --device matches in any case
    for d in devices:
        v = (d.get("platform_version") or "").split()
        impl = v[2] if len(v) > 2 and v[0] == "OpenCL" else d["platform"]
        out.append((q([bench, "vecadd", "--device", impl[:1]]), {impl}, False))
        out.append((q([bench, "vecadd", "--device", d["platform"][:1]]), {d["platform"]}, False))
        out.append((q([bench, "vecadd", "--device", impl[:1].swapcase()]), {impl}, False))
    r = subprocess.run([bench, "suite", "--list"], capture_output=True, text=True, check=True)
    suites = {line.split()[0] for line in r.stdout.splitlines() if line.strip()}
    out.append((q([bench, "suite", ""]), suites, False))
    for s in suites:
        out.append((q([bench, "suite", s[:1]]), {s}, False))
    return out


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n")[2], file=sys.stderr)
        return 2
    bench, completion = (os.path.abspath(a) for a in argv[1:])
    if not shutil.which("bash"):
        print("skipped: no bash")
        return 77
    cmds = json.loads(subprocess.run([bench, "list", "--json"], capture_output=True, text=True,
                                     check=True).stdout)
    with tempfile.TemporaryDirectory(prefix="bench-completion-") as tmp:
        open(os.path.join(tmp, "doc.json"), "w").close()
        todo = cases(bench, cmds, tmp) + live_cases(bench)
        r = subprocess.run(["bash", "-c", DRIVER, "driver", completion], capture_output=True,
                           text=True, input="".join(w + "\n" for w, _, _ in todo), cwd=tmp)
    answers = r.stdout.split("@@\n")
    bad = 0
    if r.returncode or r.stderr or len(answers) != len(todo) + 1:
        print(f"bash: exit {r.returncode}, {len(answers) - 1} answers for {len(todo)}: {r.stderr}")
        return 1
    for (words, want, exact), got in zip(todo, answers):
        got = {re.sub(r"\\(.)", r"\1", w) for w in got.splitlines()}   # printf %q undone
        if (got != want) if exact else not want <= got:
            bad += 1
            print(f"[{words}]: wanted {'' if exact else 'at least '}{sorted(want)}, got {sorted(got)}")
    print(f"{len(todo)} completions, {bad} wrong")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
