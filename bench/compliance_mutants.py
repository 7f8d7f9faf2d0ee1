"""Mutation testing of the compliance matrix's requirements (issue 36, item 3): make compliance-mutants.

For each requirement with code and proving tests (apps/compliance/mutation.py says what is mutated and how a mutant
is named), cosmic-ray mutates the lines of the definitions that implement it and runs, for each mutant, only the
tests that prove it (`pytest -x` on their node ids, one process at a time, in this process's environment: give it
make test's). A requirement with the same code (the same lines) and the same proving tests as one already run in this
run takes that one's results (the same mutants against the same tests: 14.8(a)1-7, the posted antes of 14.9(b) to
14.13A(b), ...), which the output line says. The results go to apps/compliance/mutants.json (or --output), which
the matrix reads; requirements not run keep their earlier results there.

cosmic-ray writes each mutant into the file it mutates, so the run works in a copy of the tree (the files git
tracks or would track, as they are now) in a temporary directory: the working tree is never mutated. DB tests reuse
their test database between runs (pytest-django's --reuse-db); the first one creates it.

    python bench/compliance_mutants.py [--requirements ID,...] [--changed-since REV] [--budget-minutes N]
                                       [--output PATH] [--list]

Last lines: one per requirement (mutants, killed, survived, equivalent, seconds), then the totals
(requirements, mutants, killed, survived, equivalent, minutes).
"""
import argparse
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from apps.compliance.matrix import matrix_for  # noqa: E402
from apps.compliance.mutation import (  # noqa: E402
    MUTANTS_FILE,
    CodeRange,
    code_ranges,
    load_equivalents,
    load_results,
    mutant_ids,
    touched_requirements,
)

BIN = Path(sys.executable).parent
#: pytest plugins a proving test does not need unless its file uses them (each costs a second or two of start-up).
#: hypothesis's plugin imports hypothesis whole: about 2 s of a DB test's 7.
OPTIONAL_PLUGINS = {"playwright": ("playwright", "mark.browser", "page"), "schemathesis": ("schemathesis",),
                    "hypothesispytest": ("hypothesis",)}


def candidates(root: Path) -> list:
    """The requirement rows that can be mutation-tested: proving tests, code, not marked not built; the hand
    engine's first (pure Python, fast), then the others, each group in the regulation's order."""
    rows = [r for r in matrix_for(root).requirement_rows if r.tests and r.code and not r.not_built]
    rows = [r for r in rows if code_ranges(root, r.code)]
    return sorted(rows, key=lambda r: not all(ref.startswith("apps/hands/") for ref in r.code))


def select(rows: list, *, requirements: list[str] | None = None, changed: list[str] | None = None) -> list:
    """The rows to run: those named (`requirements`), else those whose code or proving test files are `changed`,
    else all. ValueError for a named id that is not a candidate."""
    if requirements:
        by_id = {r.id: r for r in rows}
        missing = [i for i in requirements if i not in by_id]
        if missing:
            raise ValueError(f"not requirements with code and proving tests: {', '.join(missing)}")
        return [by_id[i] for i in requirements]
    if changed is not None:
        picked = set(touched_requirements(rows, changed))
        return [r for r in rows if r.id in picked]
    return rows


def changed_files(rev: str) -> list[str]:
    """The paths that differ between `rev` and the working tree (git diff --name-only)."""
    out = subprocess.run(["git", "diff", "--name-only", rev], cwd=ROOT, capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if line]


def copy_tree(dest: Path, root: Path = ROOT) -> None:
    """The files git tracks or would track (not ignored), as they are in the working tree of `root`, copied under
    `dest`; the material beside the checkout (`root`/../shared: real hand histories, which tests read from there) is
    linked beside the copy, read in place."""
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=root, capture_output=True,
                         check=True)
    for name in filter(None, out.stdout.decode().split("\0")):
        src = root / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    shared = root.parent / "shared"
    if shared.is_dir() and not (dest.parent / "shared").exists():
        (dest.parent / "shared").symlink_to(shared.resolve(), target_is_directory=True)


def test_command(nodeids: list[str], root: Path) -> str:
    files = {n.partition("::")[0] for n in nodeids}
    texts = " ".join((root / f).read_text(encoding="utf-8") for f in files if (root / f).is_file())
    off = [f"-p no:{p}" for p, words in OPTIONAL_PLUGINS.items() if not any(w in texts for w in words)]
    return " ".join([shlex.quote(sys.executable), "-m pytest -x -q -p no:cacheprovider -p no:xdist -p no:json-report",
                     *off, "--reuse-db", *map(shlex.quote, nodeids)])


def run(cmd: list[str] | str, cwd: Path, timeout: float | None = None) -> tuple[int | None, str]:
    """(exit code, or None when `timeout` ran out and the process group was killed; output)."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    args = shlex.split(cmd) if isinstance(cmd, str) else cmd
    proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True, text=True)
    try:
        out, _ = proc.communicate(timeout=None if timeout == float("inf") else timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return None, out
    return proc.returncode, out


def config_text(file: str, ranges: list[CodeRange], command: str, timeout: float) -> str:
    lines = json.dumps([f"{r.start}-{r.end}" for r in ranges])
    return (f'[cosmic-ray]\nmodule-path = {json.dumps(file)}\ntimeout = {timeout:.0f}.0\nexcluded-modules = []\n'
            f'test-command = {json.dumps(command)}\n\n[cosmic-ray.distributor]\nname = "local"\n\n'
            f'[cosmic-ray.filters.line-filter.lines]\n{json.dumps(file)} = {lines}\n')


def mutate_file(work: Path, session_dir: Path, file: str, ranges: list[CodeRange], command: str, timeout: float,
                deadline: float) -> tuple[list[dict], bool]:
    """cosmic-ray on the lines `ranges` of `file`: ([{"definition", "operator", "outcome", "diff"}], complete)."""
    config = session_dir / "config.toml"
    session = session_dir / "session.sqlite"
    session.unlink(missing_ok=True)
    config.write_text(config_text(file, ranges, command, timeout), encoding="utf-8")
    for step in ([str(BIN / "cosmic-ray"), "init", str(config), str(session)],
                 [str(BIN / "cr-filter-lines"), "--config", str(config), str(session)]):
        code, out = run(step, work)
        if code != 0:
            raise RuntimeError(f"{' '.join(step)}: {out[-2000:]}")
    code, out = run([str(BIN / "cosmic-ray"), "exec", str(config), str(session)], work,
                    timeout=max(1.0, deadline - time.monotonic()))
    complete = code is not None
    if not complete:  # the budget ran out mid-file: the file may hold a mutant
        shutil.copy2(ROOT / file, work / file)
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    found = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            if result.worker_outcome == WorkerOutcome.SKIPPED:
                continue
            mutation = item.mutations[0]
            line = mutation.start_pos[0]
            inside = [r for r in ranges if r.start <= line <= r.end]
            definition = min(inside, key=lambda r: r.end - r.start).definition if inside else "?"
            outcome = {TestOutcome.KILLED: "killed", TestOutcome.SURVIVED: "survived"}.get(
                result.test_outcome, "incompetent")
            found.append({"definition": definition, "operator": f"{mutation.operator_name} {mutation.occurrence}",
                          "outcome": outcome, "diff": result.diff or "", "line": line})
    found.sort(key=lambda m: (m["line"], m["operator"]))
    return found, complete


def work_key(row, work: Path) -> tuple:
    """What a requirement's run depends on: the lines of its code (as the copy `work` holds them) and its proving
    tests; two requirements with the same key get the same results."""
    ranges = code_ranges(work, row.code)
    return (tuple(sorted((r.file, r.start, r.end) for r in ranges)), tuple(sorted(t.nodeid for t in row.tests)))


def mutate_requirement(row, work: Path, session_dir: Path, deadline: float) -> dict:
    """One requirement's run in the copy `work`: its code's lines are read there, as the copy holds them (the
    working tree may have changed since the copy was made), and mutated there."""
    ranges = code_ranges(work, row.code)
    tests = [t.nodeid for t in row.tests]
    entry = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "seconds": 0.0,
             "code": [{"file": r.file, "definition": r.definition, "start": r.start, "end": r.end} for r in ranges],
             "tests": tests, "mutants": 0, "killed": 0, "incompetent": 0, "survivors": [], "complete": True,
             "error": ""}
    started = time.monotonic()
    command = test_command(tests, work)
    code, out = run(command, work, timeout=max(1.0, deadline - time.monotonic()))
    baseline = time.monotonic() - started
    if code != 0:
        entry["complete"] = code is not None
        entry["error"] = "" if code is None else f"its proving tests fail unmutated (exit {code}): {out[-500:]}"
        entry["seconds"] = round(baseline, 1)
        return entry
    timeout = max(30.0, 4 * baseline + 20)
    by_file: dict[str, list[CodeRange]] = {}
    for r in ranges:
        by_file.setdefault(r.file, []).append(r)
    mutants: list[dict] = []
    for file, file_ranges in by_file.items():
        if time.monotonic() >= deadline:
            entry["complete"] = False
            break
        found, complete = mutate_file(work, session_dir, file, file_ranges, command, timeout, deadline)
        mutants += [{**m, "file": file} for m in found]
        if not complete:
            entry["complete"] = False
            break
    counted = [m for m in mutants if m["outcome"] != "incompetent"]
    ids = mutant_ids((m["file"], m["definition"], m["operator"].split()[0], m["diff"]) for m in counted)
    entry.update(mutants=len(counted), killed=sum(1 for m in counted if m["outcome"] == "killed"),
                 incompetent=len(mutants) - len(counted),
                 survivors=[{"id": i, "operator": m["operator"], "diff": m["diff"]}
                            for i, m in zip(ids, counted, strict=True) if m["outcome"] == "survived"],
                 seconds=round(time.monotonic() - started, 1))
    return entry


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requirements", default="", help="comma-separated requirement ids (default: all)")
    parser.add_argument("--changed-since", default="", metavar="REV",
                        help="only requirements whose code or proving test files differ from REV (git diff)")
    parser.add_argument("--budget-minutes", type=float, default=0.0,
                        help="start no requirement after this many minutes, stop a running one (0: no limit)")
    parser.add_argument("--output", type=Path, default=MUTANTS_FILE)
    parser.add_argument("--list", action="store_true", help="print the requirements selected and exit")
    args = parser.parse_args(argv)

    rows = select(candidates(ROOT), requirements=[i.strip() for i in args.requirements.split(",") if i.strip()],
                  changed=changed_files(args.changed_since) if args.changed_since else None)
    if args.list:
        for r in rows:
            print(r.id, " ".join(f"{c.file}:{c.definition}" for c in code_ranges(ROOT, r.code)))
        return 0
    started = time.monotonic()
    deadline = started + args.budget_minutes * 60 if args.budget_minutes else float("inf")
    previous = json.loads(args.output.read_text(encoding="utf-8")) if args.output.is_file() else {}
    entries = dict(previous.get("requirements", {}))
    done: list[str] = []
    with tempfile.TemporaryDirectory(prefix="compliance-mutants-") as tmp:
        work, session_dir = Path(tmp) / "tree", Path(tmp) / "sessions"
        work.mkdir()
        session_dir.mkdir()
        copy_tree(work)
        same_work: dict[tuple, str] = {}
        for row in rows:
            if time.monotonic() >= deadline:
                print(f"budget spent: {len(rows) - len(done)} requirements not run", flush=True)
                break
            key = work_key(row, work)
            if key in same_work:
                entries[row.id] = {**entries[same_work[key]], "date": datetime.now(UTC).isoformat(timespec="seconds"),
                                   "seconds": 0.0}
                done.append(row.id)
                print(f"{row.id:<28} the same code and proving tests as {same_work[key]}: its results", flush=True)
                write(args.output, entries, done, started, argv)
                continue
            entry = mutate_requirement(row, work, session_dir, deadline)
            if not entry["complete"] and not entry["mutants"] and not entry["error"]:
                print(f"{row.id}: stopped by the budget before any mutant ran", flush=True)
                break
            entries[row.id] = entry
            done.append(row.id)
            if entry["complete"] and not entry["error"]:
                same_work[key] = row.id
            survived = len(entry["survivors"])
            print(f"{row.id:<28} mutants {entry['mutants']:>4}  killed {entry['killed']:>4}  survived "
                  f"{survived:>3}  {entry['seconds']:>6.0f} s{'' if entry['complete'] else '  (budget: partial)'}"
                  + (f"  ERROR {entry['error'][:200]}" if entry["error"] else ""), flush=True)
            write(args.output, entries, done, started, argv)
    write(args.output, entries, done, started, argv)
    results, run_record = load_results(args.output, load_equivalents())
    ran = [results[i] for i in done]
    print(f"requirements {len(ran)}, mutants {sum(r.mutants for r in ran)}, killed {sum(r.killed for r in ran)}, "
          f"survived {sum(r.survived for r in ran)}, equivalent {sum(r.equivalent for r in ran)}, "
          f"minutes {run_record.get('minutes', 0)}")
    return 0


def write(path: Path, entries: dict, done: list[str], started: float, argv: list[str] | None) -> None:
    """The results file: every entry (earlier ones kept), and this run's record."""
    ran = [entries[i] for i in done]
    run_record = {"date": datetime.now(UTC).isoformat(timespec="seconds"),
                  "minutes": round((time.monotonic() - started) / 60, 1),
                  "command": " ".join(["python bench/compliance_mutants.py", *(sys.argv[1:] if argv is None else argv)]),
                  "tool": f"cosmic-ray {_version('cosmic-ray')}", "requirements": done,
                  "mutants": sum(e["mutants"] for e in ran), "killed": sum(e["killed"] for e in ran),
                  "survived": sum(len(e["survivors"]) for e in ran)}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"run": run_record, "requirements": dict(sorted(entries.items()))}, indent=1) + "\n",
                   encoding="utf-8")
    tmp.replace(path)


def _version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


if __name__ == "__main__":
    sys.exit(main())
