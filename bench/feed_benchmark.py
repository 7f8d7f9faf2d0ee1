"""The hand feed at production speed (issue 12): PHH hands imported end to end on PostgreSQL against pokerkit's bare
load-and-replay of the same hands, in one run.

    python bench/feed_benchmark.py [--hands 10000] [--small 1000] [--database-url postgres://...]
    python bench/feed_benchmark.py --as-a-user 10000,100000 [--one-file]     (make bench-feed FEED_ARGS="...")

Measures, each in a fresh database copied from one migrated and seeded with `seed_demo --no-rounds`:

1. pokerkit: load every hand (HandHistory.load_all) and replay it to its end — no database, no settlement;
2. ours: `import_phh` of the same hands (parse, our accounting, verification, pots, rake, bad beat contribution,
   award, bad beat check, every record written and committed), at the table posting their blinds;
3. the same import of `--small` hands, to see that 10x the hands costs no more than 11x the time;
4. while a full import runs in another process, rounds posted one after the other at another table (with their rake
   and bad beat contribution, so they need the jackpot's row lock): their latency.

Each timed part runs in its own process, the clock started after its imports (Django, pokerkit) are loaded. The
last line is one JSON object with every figure.

With --as-a-user (issue 35), only this: for each N, N hands written to files (the Pluribus set repeated under new
`hand` numbers), then pokerkit's load-and-replay of those files in a process of its own and `manage.py import_phh`
of them (table 9 of a fresh database), each timed from process start to exit (interpreter, Django and pokerkit
loading included), with each process's peak RSS (wait4's ru_maxrss: the largest of the process and the worker
processes it waited for): hands/s both sides, the ratio of the rates and the import's peak memory at each N
(streamed: it should not grow with N). The import runs with --jobs set to the processors (the folder's files imported by that many worker
processes at once), then again with --jobs 1 (one process, the command's default) in a fresh database.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLURIBUS = ROOT.parent / "shared" / "data" / "phh" / "pluribus"
DEFAULT_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/feedbench")


def hands_text(count: int) -> list[tuple[str, str]]:
    """The first `count` Pluribus hands as (file name, .phhs text), whole files then part of the last."""
    out, left = [], count
    for path in sorted(PLURIBUS.glob("*.phhs")):
        sections = [s for s in path.read_text().split("\n\n") if s.strip()]
        take = sections[:left]
        out.append((path.name, "\n\n".join(take) + "\n"))
        left -= len(take)
        if left <= 0:
            break
    return out


# --- the timed parts (each in its own process) ----------------------------------------------------------------

def run_pokerkit(count: int) -> dict:
    import warnings
    from io import BytesIO

    from pokerkit import HandHistory

    warnings.simplefilter("ignore")
    texts = hands_text(count)
    started = time.perf_counter()
    replayed = 0
    for _, text in texts:
        for hh in HandHistory.load_all(BytesIO(text.encode())):
            for _state in hh:
                pass
            replayed += 1
    return {"hands": replayed, "seconds": time.perf_counter() - started}


def _django():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerroom.settings")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only")
    os.environ.setdefault("DJANGO_DEBUG", "false")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def run_import(count: int) -> dict:
    _django()
    from apps.casinos.models import Casino
    from apps.feed.services import ImportSummary, import_phh
    from apps.tables.models import PokerTable

    casino = Casino.objects.get(code="boardwalk")
    table = PokerTable.objects.get(casino=casino, number=9)  # no-limit hold 'em, blinds 50/100
    texts = hands_text(count)
    summary = ImportSummary()
    started = time.perf_counter()
    for name, text in texts:
        import_phh(casino=casino, text=text, name=name, table=table, summary=summary)
    return {"hands": summary.imported, "seconds": time.perf_counter() - started}


def run_rounds_during_import(rounds: int) -> dict:
    """Post rounds at table 1 while another process imports; the latency of each, in ms."""
    _django()
    from decimal import Decimal

    from django.utils import timezone

    from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
    from apps.rounds.models import RoundOfPlay
    from apps.tables.models import PokerTable

    table = PokerTable.objects.select_related("casino").prefetch_related("rotation").get(number=1)

    def one_round(n: int) -> RoundIn:
        return RoundIn(started_at=timezone.now(), board="Ah Kd 5c 9s 3h", source_name=f"bench {n}", players=[
            PlayerIn(seat=1, contributed=Decimal("40"), hole_cards="As Ks"),
            PlayerIn(seat=2, contributed=Decimal("40"), hole_cards="2c 7d"),
            PlayerIn(seat=3, contributed=Decimal("2"), folded=True)])

    record_round_of_play(table=table, round_in=one_round(-1))  # warm, as a web worker is: the engine's tables
    deadline = time.time() + 120
    while not RoundOfPlay.objects.filter(table__number=9).exists() and time.time() < deadline:
        time.sleep(0.05)  # the import has committed its first batch
    latencies = []
    for n in range(rounds):
        round_in = one_round(n)
        started = time.perf_counter()
        record_round_of_play(table=table, round_in=round_in)
        latencies.append((time.perf_counter() - started) * 1000)
        time.sleep(0.1)
    still_importing = RoundOfPlay.objects.filter(table__number=9).count()
    return {"latencies_ms": latencies, "imported_when_done": still_importing}


# --- as a user runs it (issue 35): whole processes, process start included ------------------------------------------

def write_hands(count: int, folder: Path, *, one_file: bool) -> int:
    """`count` hands written under `folder`: the 10,000 Pluribus hands repeated, copy r > 0 under new ids (its hands'
    `hand` number + r * 1,000,000, which the source digest includes, so each is a new hand), as the Pluribus files
    (copy r in folder `r{r}`) or, with `one_file`, all in one `.phhs` with headers [1] to [count]. The hands written."""
    written = 0
    out = (folder / "hands.phhs").open("w") if one_file else None
    try:
        for copy in range(-(-count // 10000)):
            for path in sorted(PLURIBUS.glob("*.phhs")):
                hands = [h for h in path.read_text().split("\n\n") if h.strip()][:count - written]
                if copy:
                    shift = copy * 1_000_000
                    hands = [re.sub(r"^hand = (\d+)$", lambda m, shift=shift: f"hand = {int(m[1]) + shift}", h,
                                    flags=re.MULTILINE) for h in hands]
                if out is not None:
                    for hand in hands:
                        written += 1
                        out.write(re.sub(r"^\[\d+\]", f"[{written}]", hand.strip(), count=1) + "\n\n")
                else:
                    (folder / f"r{copy}").mkdir(exist_ok=True)
                    (folder / f"r{copy}" / path.name).write_text("\n\n".join(hands) + "\n")
                    written += len(hands)
                if written >= count:
                    return written
    finally:
        if out is not None:
            out.close()
    return written


def run_pokerkit_files(folder: str) -> dict:
    """pokerkit's load-and-replay of every .phhs under `folder`, file by file (HandHistory.load_all)."""
    import warnings

    from pokerkit import HandHistory

    warnings.simplefilter("ignore")
    replayed = 0
    for path in sorted(Path(folder).rglob("*.phhs")):
        with path.open("rb") as file:
            for hh in HandHistory.load_all(file):
                for _state in hh:
                    pass
                replayed += 1
    return {"hands": replayed}


def run_as_a_user(counts: list[int], url: str, template: str, *, one_file: bool) -> list[dict]:
    """For each count: pokerkit's load-and-replay in a process of its own, then `manage.py import_phh` of the same
    files into a fresh database (the hands at table 9), both timed from process start to exit, with each process's
    peak RSS (wait4's rusage: ru_maxrss, KiB on Linux)."""
    import tempfile

    name = url.rsplit("/", 1)[1]
    # as installed (make install, the Dockerfile): our modules compiled, as pip compiled pokerkit's
    subprocess.run([sys.executable, "-m", "compileall", "-q", "pokerroom", "apps", "manage.py"], cwd=ROOT, check=True,
                   capture_output=True)
    rows = []
    for count in counts:
        with tempfile.TemporaryDirectory(prefix="feedbench-") as tmp:
            folder = Path(tmp)
            hands = write_hands(count, folder, one_file=one_file)
            database = fresh(url, template, f"{name}_u")
            env = {**os.environ, "DATABASE_URL": database, "DJANGO_SECRET_KEY": "bench-only",
                   "DJANGO_DEBUG": "false"}
            theirs = _waited([sys.executable, __file__, "--part", "pokerkit-files", str(folder)], env)
            ours = _waited([sys.executable, "manage.py", "import_phh", str(folder), "--casino", "boardwalk",
                            "--table", "9", "--no-progress", "--jobs", str(default_jobs())], env)
            if f"Imported {hands} rounds" not in ours["out"]:
                raise SystemExit(f"the import did not take every hand: {ours['out'][:2000]}")
            database = fresh(url, template, f"{name}_u")
            one_job = _waited([sys.executable, "manage.py", "import_phh", str(folder), "--casino", "boardwalk",
                               "--table", "9", "--no-progress", "--jobs", "1"], env)
            if f"Imported {hands} rounds" not in one_job["out"]:
                raise SystemExit(f"the import did not take every hand: {one_job['out'][:2000]}")
            psql(url, f'DROP DATABASE IF EXISTS "{name}_u"')
        row = {"hands": hands, "layout": "one file" if one_file else "files", "jobs": default_jobs(),
               "ours_s": round(ours["seconds"], 2), "pokerkit_s": round(theirs["seconds"], 2),
               "ours_hands_per_s": round(hands / ours["seconds"]),
               "pokerkit_hands_per_s": round(hands / theirs["seconds"]),
               "rate_ours_to_pokerkit": round(theirs["seconds"] / ours["seconds"], 3),
               "one_job_s": round(one_job["seconds"], 2),
               "rate_one_job_to_pokerkit": round(theirs["seconds"] / one_job["seconds"], 3),
               "ours_peak_rss_mib": ours["rss_mib"], "one_job_peak_rss_mib": one_job["rss_mib"],
               "pokerkit_peak_rss_mib": theirs["rss_mib"]}
        rows.append(row)
        print(f"{hands:>7} hands ({row['layout']}): pokerkit {row['pokerkit_s']:7.2f} s {row['pokerkit_hands_per_s']:>5}"
              f" hands/s peak {row['pokerkit_peak_rss_mib']} MiB; import_phh ({row['jobs']} jobs) {row['ours_s']:7.2f} s "
              f"{row['ours_hands_per_s']:>5} hands/s peak {row['ours_peak_rss_mib']} MiB a process; ours/pokerkit rate "
              f"{row['rate_ours_to_pokerkit']}x; --jobs 1 {row['one_job_s']:7.2f} s peak {row['one_job_peak_rss_mib']} "
              f"MiB, rate {row['rate_one_job_to_pokerkit']}x", flush=True)
    return rows


def default_jobs() -> int:
    """The --jobs the bench gives import_phh: this machine's processors, at most 4."""
    return max(1, min(4, len(os.sched_getaffinity(0))))


def _waited(command: list[str], env: dict[str, str]) -> dict:
    """Run `command` to its end: wall seconds from its start to its exit, its peak RSS (MiB, from wait4's rusage) and
    its output (through files, so that no pipe fills while it runs)."""
    import tempfile

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text, errors = out.read().decode(), err.read().decode()
    if process.returncode:
        raise SystemExit(f"{command} failed ({process.returncode}): {errors[-2000:]}")
    return {"seconds": seconds, "rss_mib": round(usage.ru_maxrss / 1024), "out": text}


# --- the conductor ------------------------------------------------------------------------------------------------

def psql(url: str, sql: str) -> None:
    base = url.rsplit("/", 1)[0] + "/postgres"
    subprocess.run(["psql", base, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql], check=True, capture_output=True)


def fresh(url: str, template: str, name: str) -> str:
    psql(url, f'DROP DATABASE IF EXISTS "{name}"')
    psql(url, f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return url.rsplit("/", 1)[0] + "/" + name


def part(kind: str, value: int, database_url: str | None = None) -> subprocess.Popen:
    env = {**os.environ, **({"DATABASE_URL": database_url} if database_url else {})}
    return subprocess.Popen([sys.executable, __file__, "--part", kind, str(value)], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)


def result(process: subprocess.Popen) -> dict:
    out, _ = process.communicate()
    if process.returncode:
        raise SystemExit(f"a part failed ({process.args})")
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=10000)
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=20, help="rounds posted during the import")
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--as-a-user", metavar="N,N", help="instead of the parts above: for each N (e.g. "
                        "10000,100000), `manage.py import_phh` of N hands against pokerkit's load-and-replay of the same "
                        "files, each a whole process timed from its start, with its peak RSS (issue 35)")
    parser.add_argument("--one-file", action="store_true", help="with --as-a-user: the N hands in one .phhs file "
                                                                "(default: the Pluribus files, repeated in folders)")
    parser.add_argument("--part", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.part:
        kind, value = args.part
        if kind == "pokerkit-files":
            print(json.dumps(run_pokerkit_files(value)))
            return
        runner = {"pokerkit": run_pokerkit, "import": run_import, "during": run_rounds_during_import}[kind]
        print(json.dumps(runner(int(value))))
        return

    url, name = args.database_url, args.database_url.rsplit("/", 1)[1]
    template = f"{name}_template"
    print("Preparing the template database (migrate, seed_demo --no-rounds) ...", flush=True)
    psql(url, f'DROP DATABASE IF EXISTS "{template}"')
    psql(url, f'CREATE DATABASE "{template}"')
    template_url = url.rsplit("/", 1)[0] + "/" + template
    env = {**os.environ, "DATABASE_URL": template_url, "DJANGO_SECRET_KEY": "bench-only", "DJANGO_DEBUG": "false"}
    for command in (["migrate", "--noinput", "-v0"], ["seed_demo", "--no-rounds"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)

    if args.as_a_user:
        rows = run_as_a_user([int(n) for n in args.as_a_user.split(",")], url, template, one_file=args.one_file)
        if len(rows) > 1:
            print(f"peak RSS of import_phh: {rows[0]['ours_peak_rss_mib']} MiB at {rows[0]['hands']} hands, "
                  f"{rows[-1]['ours_peak_rss_mib']} MiB at {rows[-1]['hands']} hands")
        print(json.dumps(rows))
        return
    theirs = result(part("pokerkit", args.hands))
    ours = result(part("import", args.hands, fresh(url, template, f"{name}_a")))
    small = result(part("import", args.small, fresh(url, template, f"{name}_b")))
    during_url = fresh(url, template, f"{name}_c")
    importer = part("import", args.hands, during_url)
    poster = part("during", args.rounds, during_url)
    during, loaded = result(poster), result(importer)
    latencies = sorted(during["latencies_ms"])

    figures = {
        "hands": ours["hands"], "ours_s": round(ours["seconds"], 2), "pokerkit_s": round(theirs["seconds"], 2),
        "ours_hands_per_s": round(ours["hands"] / ours["seconds"]),
        "pokerkit_hands_per_s": round(theirs["hands"] / theirs["seconds"]),
        "ratio_ours_to_pokerkit_time": round(ours["seconds"] / theirs["seconds"], 3),
        "scaling": {"small_hands": small["hands"], "small_s": round(small["seconds"], 2),
                    "time_ratio": round(ours["seconds"] / small["seconds"], 2),
                    "hands_ratio": round(ours["hands"] / small["hands"], 2)},
        "round_during_import_ms": {"n": len(latencies), "p50": round(statistics.median(latencies), 1),
                                   "p95": round(latencies[int(0.95 * (len(latencies) - 1))], 1),
                                   "max": round(latencies[-1], 1),
                                   "import_s": round(loaded["seconds"], 2),
                                   "import_rows_when_last_round_done": during["imported_when_done"]},
    }
    for suffix in ("a", "b", "c"):
        psql(url, f'DROP DATABASE IF EXISTS "{name}_{suffix}"')
    print(f"pokerkit load+replay : {theirs['hands']:>6} hands {theirs['seconds']:7.2f} s "
          f"{figures['pokerkit_hands_per_s']:>6} hands/s")
    print(f"pokerroom import     : {ours['hands']:>6} hands {ours['seconds']:7.2f} s "
          f"{figures['ours_hands_per_s']:>6} hands/s  ({figures['ratio_ours_to_pokerkit_time']}x pokerkit's time)")
    print(f"pokerroom import     : {small['hands']:>6} hands {small['seconds']:7.2f} s  "
          f"(10x the hands: {figures['scaling']['time_ratio']}x the time)")
    d = figures["round_during_import_ms"]
    print(f"round at another table during a {ours['hands']}-hand import: p50 {d['p50']} ms, p95 {d['p95']} ms, "
          f"max {d['max']} ms over {d['n']} rounds")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
