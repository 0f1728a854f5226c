"""The whole CI pipeline files of the docs, run as a runner runs them (recipes.py's part).

A yaml block is a GitLab CI file (jobs with script:, after_script:, variables:, artifacts:) or a
GitHub Actions workflow (on: and jobs: with steps). Each job runs in a fresh folder of its own, a
`git clone` of the page's folder (what the page's blocks committed: results/baselines/) with the
files a checkout of the project holds there (the small suite, the boards' expectation files) and
the runner's history folder beside it. Its steps run in order, as recipes.py runs a shell block
(the same substitutions, each printed), and these in addition, each printed:

- SOURCE: the steps that build bench from the request's source (scripts/setup.sh, env.sh and
  build.sh) are the installed copy's: `: STEP`, the script checked to exist in the source tree;
- OFFLINE: what needs the network or a server (the LNT client's install from PyPI, `lnt submit`)
  becomes `: # STEP` to its line's end, the rest of its step runs;
- GitHub's `${{ vars.NAME }}` is VARS[NAME]; an `if:` of always(), hashFiles('F') != '' and
  vars.NAME != '' terms is evaluated (another expression fails the test).

What cannot run here is checked for form after the job: the `uses:` steps (actions/checkout: the
folder is a git checkout with a commit; a JUnit report action: its report_paths are JUnit XML the
job wrote; actions/upload-artifact: every path it names exists) and GitLab's artifacts: (every
path and report exists). A job with `parallel: N` runs as its node 1 of N.
"""
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

SOURCE = re.compile(r"(?<![\w./:])(\./scripts/(?:setup|build)\.sh|\. scripts/env\.sh)([^\n&;|]*)")
OFFLINE = [
    (re.compile(r"python3 -m venv \.deps-lnt/venv && \.deps-lnt/venv/bin/pip install [^\n]*"),
     "the LNT client from PyPI: the network (the job's cache .deps-lnt/ keeps it)"),
    (re.compile(r"\.deps-lnt/venv/bin/lnt submit [^\n]*"), "an LNT server"),
]
VARS = {"LNT_URL": "https://lnt.example.com"}
KNOWN_USES = ("actions/checkout@", "mikepenz/action-junit-report@", "actions/upload-artifact@")


def offline(text, where, source):
    """text with the source build and the network's steps made no-ops; the problems found."""
    bad = []

    def stub(m):
        script = m.group(1).split()[-1].lstrip("./")
        path = os.path.join(source, script)
        if not os.path.isfile(path) or (not script.endswith("env.sh") and not os.access(path, os.X_OK)):
            bad.append(f"{where}: '{m.group(0).strip()}' names {script}, which the source tree lacks")
        print(f"{where}: '{m.group(0).strip()}' -> ': ...' (the installed bench stands for the "
              "source build)")
        return ": " + m.group(0)

    text = SOURCE.sub(stub, text)
    for pattern, why in OFFLINE:
        for m in pattern.finditer(text):
            print(f"{where}: '{m.group(0)[:60]}...' -> ': ...' ({why})")
        text = pattern.sub(lambda m: ": # " + m.group(0), text)   # to the line's end
    return text, bad


def expressions(text, where):
    """GitHub's ${{ vars.NAME }} replaced; (text, problems)."""
    bad = []

    def var(m):
        expr = m.group(1).strip()
        v = re.fullmatch(r"vars\.(\w+)", expr)
        if not v or v.group(1) not in VARS:
            bad.append(f"{where}: an expression the test cannot evaluate: ${{{{ {expr} }}}}")
            return ""
        return VARS[v.group(1)]
    return re.sub(r"\$\{\{(.*?)\}\}", var, text), bad


def condition(cond, jobdir):
    """An if: of always(), hashFiles('F') != '' and vars.NAME != '' terms joined by &&; None: not one."""
    result = True
    for term in (t.strip() for t in str(cond).split("&&")):
        h = re.fullmatch(r"hashFiles\('([^']+)'\) != ''", term)
        v = re.fullmatch(r"vars\.(\w+) != ''", term)
        if term in ("always()", "success()"):
            continue
        if h:
            result = result and os.path.exists(os.path.join(jobdir, h.group(1)))
        elif v:
            result = result and bool(VARS.get(v.group(1)))
        else:
            return None
    return result


def job_folder(work, tmp, name):
    """A fresh checkout of the page's folder, with the runner's history beside it."""
    jobdir = os.path.join(tmp, "job-" + re.sub(r"\W", "-", name))
    subprocess.run(["git", "clone", "-q", work, jobdir], check=True, capture_output=True)
    for part in ("gpu.json", "ci"):   # what the project's checkout holds
        src = os.path.join(work, part)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(jobdir, part), dirs_exist_ok=True)
        elif os.path.exists(src):
            shutil.copy(src, jobdir)
    if os.path.isdir(os.path.join(work, "history")):
        os.symlink(os.path.join(work, "history"), os.path.join(jobdir, "history"))
    return jobdir


def run_script(ctx, where, text, jobdir, env):
    """One script under recipes.py's rules; its problems."""
    text = ctx["adapt"](text, where)
    text, bad = offline(text, where, ctx["source"])
    text, bad2 = expressions(text, where)
    bad += bad2
    return bad + ctx["run"](text, where, jobdir, env)


def exists(jobdir, where, path, what):
    full = os.path.join(jobdir, path)
    ok = os.path.isdir(full) if path.endswith("/") else os.path.isfile(full)
    print(f"{where}: {what} {path}: {'written' if ok else 'MISSING'}")
    return [] if ok else [f"{where}: {what} {path} was not written by the job"]


def junit(jobdir, where, path):
    bad = exists(jobdir, where, path, "JUnit report")
    if not bad:
        try:
            root = ET.parse(os.path.join(jobdir, path)).getroot()
            if root.tag not in ("testsuites", "testsuite"):
                bad.append(f"{where}: {path} is XML but not JUnit (<{root.tag}>)")
        except ET.ParseError as e:
            bad.append(f"{where}: {path} is not XML: {e}")
    return bad


def gitlab_job(ctx, where, job, jobdir, env):
    env = dict(env)
    for k, v in (job.get("variables") or {}).items():
        env[k] = ctx["adapt"](str(v), f"{where} variables.{k}").replace("$PWD", jobdir)
    if job.get("parallel"):
        env.update(CI_NODE_TOTAL=str(job["parallel"]), CI_NODE_INDEX="1")
    bad = run_script(ctx, where, "\n".join(job["script"]), jobdir, env)
    if job.get("after_script"):
        bad += run_script(ctx, where + " after_script", "\n".join(job["after_script"]), jobdir, env)
    art = job.get("artifacts") or {}
    for path in art.get("paths") or []:
        bad += exists(jobdir, where, path, "artifact")
    for kind, path in (art.get("reports") or {}).items():
        bad += junit(jobdir, where, path) if kind == "junit" else exists(jobdir, where, path, kind)
    return bad


def github_uses(where, step, jobdir, skipped_text):
    uses, args = step["uses"], step.get("with") or {}
    if uses.startswith("actions/checkout@"):
        r = subprocess.run(["git", "rev-parse", "HEAD"], cwd=jobdir, capture_output=True)
        print(f"{where}: {uses}: the job's folder is a git checkout")
        return [] if r.returncode == 0 else [f"{where}: the checkout has no commit for {uses}"]
    if uses.startswith("mikepenz/action-junit-report@"):
        return [b for p in str(args.get("report_paths", "")).split(",") for b in junit(jobdir, where, p.strip())]
    if uses.startswith("actions/upload-artifact@"):
        bad = []
        for p in str(args.get("path", "")).split():
            if not os.path.exists(os.path.join(jobdir, p)) and p in skipped_text:
                print(f"{where}: artifact {p}: only a step that did not run writes it")
            else:
                bad += exists(jobdir, where, p, "artifact")
        return bad
    return [f"{where}: a uses: step the test does not know ({uses}; it knows {', '.join(KNOWN_USES)})"]


def github_job(ctx, where, job, jobdir, env):
    bad, skipped_text = [], ""
    for i, step in enumerate(job.get("steps") or []):
        at = f"{where} step {i + 1}" + (f" ({step['name']})" if step.get("name") else "")
        if "if" in step:
            go = condition(step["if"], jobdir)
            if go is None:
                bad.append(f"{at}: an if: the test cannot evaluate: {step['if']}")
                continue
            if not go:
                print(f"{at}: not run (if: {step['if']})")
                skipped_text += str(step.get("run", ""))
                continue
        if "run" in step:
            bad += run_script(ctx, at, str(step["run"]), jobdir, dict(env, **(step.get("env") or {})))
        elif "uses" in step:
            bad += github_uses(at, step, jobdir, skipped_text)
        else:
            bad.append(f"{at}: neither run: nor uses:")
    return bad


def run_pipeline(ctx, where, doc, work, tmp, env):
    """Every job of a pipeline file; the problems found."""
    bad = []
    if isinstance(doc, dict) and isinstance(doc.get("jobs"), dict):
        for name, job in doc["jobs"].items():
            bad += github_job(ctx, f"{where} {name}", job, job_folder(work, tmp, f"{where}-{name}"), env)
        return bad
    if not isinstance(doc, dict):
        return [f"{where}: not a pipeline file (a GitLab CI file or a GitHub Actions workflow)"]
    for name, job in doc.items():
        if isinstance(job, dict) and isinstance(job.get("script"), list):
            bad += gitlab_job(ctx, f"{where} {name}", job, job_folder(work, tmp, f"{where}-{name}"), env)
    return bad
