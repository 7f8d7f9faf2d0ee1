"""Mutation testing of the requirements (issue 36, item 3): what `make compliance-mutants`
(bench/compliance_mutants.py, cosmic-ray) mutates for a requirement, how a mutant is named across runs, and the
results file the matrix reads. Pure Python (no Django, no cosmic-ray): the runner, the matrix and the tests share it.

What is mutated. For each requirement with code and proving tests (`matrix.RequirementRow.code` and `.tests`),
the lines of each definition listed as its code ("apps/x/y.py:function", "...:Class", "...:Class.method"; a class
with its methods; its body after the docstring, `definition_range`) and of the private helpers of the same file it
uses ("_straight_high": `private_helpers`; a helper that cites clauses or requirements is the code of those instead,
listed by the matrix), and only those; a module listed as code (its docstring cites the clause) is not mutated: its
whole text would be tried against one requirement's tests; nor is a Django model listed as code, which stands for its
schema (`is_model`: the migrations test holds it).
Each mutant runs only the requirement's proving tests (plain pytest, one process, the suite's environment); it
is *killed* when they fail or time out, else it *survives*.

Naming. A mutant is "<file>:<definition>:<hash>" (`mutant_id`): the hash is of the cosmic-ray operator and the
lines the mutation removes and adds (indentation stripped), so it stays the same when code above it moves; a
second mutant with the same hash in the same definition gets "-2", and so on, in cosmic-ray's order.

Equivalent mutants. A surviving mutant that no test could kill (it behaves as the code does) is explained in
equivalent_mutants.toml, one `[[mutant]]` each: `requirement` (its id, a list of ids the same reason holds for,
or "*" for every requirement the definition implements), `id` (as above) and `reason` (why it is equivalent, in
words; required). The matrix reads
the reasons when it is built, so writing one needs no new run.

The results file (mutants.json, written by the runner; a run for some requirements keeps the others' results):
{"run": {"date", "minutes", "command", "tool", "requirements" (ids run), "mutants", "killed", "survived" (survivors, explained or not)}, "requirements":
{id: {"date", "seconds", "code": [{"file", "definition", "start", "end"}], "tests": [nodeid], "mutants",
"killed", "survivors": [{"id", "operator", "diff"}], "complete" (False when the budget stopped it), "error"
("" or why no mutant was run, e.g. its proving tests fail unmutated)}}}.
"""
import ast
import functools
import hashlib
import json
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .scanner import docstring_citations

MUTANTS_FILE = Path(__file__).with_name("mutants.json")
EQUIVALENT_FILE = Path(__file__).with_name("equivalent_mutants.toml")


@dataclass(frozen=True)
class CodeRange:
    """A definition to mutate: `file` ("apps/x/y.py"), `definition` ("Class.method"), lines `start`..`end`
    (1-based, inclusive; its body after the docstring: decorators and the signature are left out, whose
    annotations these modules do not evaluate (`from __future__ import annotations`) and whose mutants would
    survive as noise; default values are left out with them)."""

    file: str
    definition: str
    start: int
    end: int


def definition_range(root: Path, ref: str) -> CodeRange | None:
    """The lines of the definition a code reference names ("apps/x/y.py:Class.method"); None for a module
    ("apps/x/y.py") or a name the file does not define (ValueError is not raised: the scanner found the ref)."""
    path, _, name = ref.partition(":")
    if not name:
        return None
    tree = _parsed(root / path)
    if tree is None:
        return None
    body: list[ast.stmt] = tree.body
    node: ast.stmt | None = None
    for part in name.split("."):
        node = next((n for n in body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                     and n.name == part), None)
        if node is None:
            return None
        body = node.body
    assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    statements = node.body[1:] if ast.get_docstring(node) is not None else node.body
    if not statements:
        return None
    return CodeRange(file=path, definition=name, start=statements[0].lineno, end=node.end_lineno or node.lineno)


def _parsed(path: Path) -> ast.Module | None:
    """The file's syntax tree, parsed once for the same contents; None when it cannot be read."""
    try:
        return _parse_text(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return None


@functools.lru_cache(maxsize=256)
def _parse_text(text: str) -> ast.Module:
    return ast.parse(text)


def private_helpers(root: Path, ref: str) -> list[str]:
    """The module-level private functions and classes ("_name") of the file a code reference names that its
    definition uses by name, directly or through one another, in the file's order ("apps/x/y.py:_helper"): the work a
    public function hands to them is its own work, mutated with it. A helper whose docstring cites clauses or
    requirements is not one of them (nor what it alone uses): it says what it implements, and is the code of those
    (the matrix lists it), not of every requirement whose code calls it. [] for a module or a name the file does
    not define."""
    path, _, name = ref.partition(":")
    tree = _parsed(root / path) if name else None
    if tree is None:
        return []
    top = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)}
    node: ast.AST | None = top.get(name.split(".")[0])
    for part in name.split(".")[1:]:
        node = next((n for n in getattr(node, "body", []) if getattr(n, "name", None) == part), None)
    if node is None:
        return []
    found: set[str] = set()
    todo = [node]
    while todo:
        for used in ast.walk(todo.pop()):
            if (isinstance(used, ast.Name) and used.id.startswith("_") and used.id in top
                    and not used.id.startswith("__") and used.id not in found and not _cites(top[used.id])):
                found.add(used.id)
                todo.append(top[used.id])
    return [f"{path}:{n}" for n in top if n in found]


def _cites(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    """Whether a definition's docstring cites a clause or a requirement (as the scanner reads them)."""
    return any(docstring_citations(node))


def code_ranges(root: Path, refs: Iterable[str]) -> list[CodeRange]:
    """The definitions of a requirement's code references, in order, each followed by the private helpers it uses
    (`private_helpers`) not listed already; modules left out (see the module), and Django models (`is_model`)."""
    seen: set[str] = set()
    ranges = []
    for ref in refs:
        for name in [ref, *private_helpers(root, ref)]:
            if name not in seen and not is_model(root, name) and (r := definition_range(root, name)) is not None:
                seen.add(name)
                ranges.append(r)
    return ranges


def mutated_definitions(root: Path, refs: Iterable[str]) -> list[str]:
    """What a mutation run of these code references mutates now, "file:definition" in order (`code_ranges`): a
    run that mutated other definitions is stale (matrix.build_matrix's `definitions`)."""
    return [f"{r.file}:{r.definition}" for r in code_ranges(root, refs)]


def is_model(root: Path, ref: str) -> bool:
    """Whether a code reference names a Django model class ("apps/x/models.py:Jackpot": a class with a base named
    "...Model", models.Model or TimeStampedModel, or with a base that is such a class of the same module, as
    RotationGame's abstract GamePosting), which is not mutated whole.

    A model cited as code stands for its schema: its field declarations, constraints and Meta, which its migrations
    hold. The test database is built from the migrations, so a changed declaration (a length, null, a choice) changes
    nothing a test of behaviour runs against; the suite's migrations test (tests/core/test_migrations.py,
    makemigrations --check) fails on any of them instead. A model's methods that implement a requirement cite it
    and are listed as code themselves ("apps/x/models.py:Jackpot.qualifying_label"), and are mutated."""
    path, _, name = ref.partition(":")
    tree = _parsed(root / path) if name and "." not in name else None
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)} if tree else {}

    def modelled(node: ast.ClassDef, seen: frozenset[str]) -> bool:
        bases = [ast.unparse(base) for base in node.bases]
        return any(base.endswith("Model") or (base in classes and base not in seen
                                              and modelled(classes[base], seen | {base})) for base in bases)
    return name in classes and modelled(classes[name], frozenset({name}))


def mutant_hash(operator: str, diff: str) -> str:
    """12 hex digits naming a mutation by its operator and the lines it removes and adds (not their numbers)."""
    changed = [line[0] + line[1:].strip() for line in diff.splitlines()
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    return hashlib.sha256("\n".join([operator, *changed]).encode()).hexdigest()[:12]


def mutant_ids(mutants: Iterable[tuple[str, str, str, str]]) -> list[str]:
    """The ids of (file, definition, operator, diff) mutants in their order (see the module: "-2" for a repeat)."""
    seen: dict[str, int] = {}
    ids = []
    for path, definition, operator, diff in mutants:
        base = f"{path}:{definition}:{mutant_hash(operator, diff)}"
        seen[base] = seen.get(base, 0) + 1
        ids.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return ids


def load_equivalents(path: Path = EQUIVALENT_FILE) -> dict[tuple[str, str], str]:
    """{(requirement id or "*", mutant id): reason} of an equivalent_mutants.toml ({} when the file is missing).
    An entry's `requirement` is one id, "*", or a list of ids the same reason holds for (one key each).
    ValueError for an entry without a requirement, an id or a reason, or a mutant listed twice for a requirement."""
    if not path.is_file():
        return {}
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    found: dict[tuple[str, str], str] = {}
    for entry in data.get("mutant", []):
        named = entry.get("requirement", "")
        requirements = [str(r).strip() for r in (named if isinstance(named, list) else [named])]
        mutant = str(entry.get("id", "")).strip()
        reason = str(entry.get("reason", "")).strip()
        if not requirements or not all(requirements) or not mutant or not reason:
            raise ValueError(f"{path.name}: every [[mutant]] needs a requirement, an id and a reason: {entry}")
        for requirement in requirements:
            if (requirement, mutant) in found:
                raise ValueError(f"{path.name}: mutant {mutant} of {requirement} is listed twice.")
            found[(requirement, mutant)] = reason
    return found


@dataclass(frozen=True)
class Survivor:
    """A mutant the proving tests let through: `id` (`mutant_ids`), `operator`, `diff` (unified diff of the file),
    `reason` (why it is equivalent, from equivalent_mutants.toml; "" when unexplained)."""

    id: str
    operator: str
    diff: str
    reason: str = ""


@dataclass
class MutationResult:
    """A requirement's last mutation run: `mutants` tried, `killed`, `survivors` (each explained or not), `date`
    (ISO), `seconds`, `complete` (False: the budget stopped it before every mutant ran), `error` (why nothing
    ran, ""), `code` (the definitions mutated, "file:definition" with lines)."""

    mutants: int
    killed: int
    survivors: list[Survivor] = field(default_factory=list)
    date: str = ""
    seconds: float = 0.0
    complete: bool = True
    error: str = ""
    code: list[str] = field(default_factory=list)

    @property
    def definitions(self) -> set[str]:
        """The definitions the run mutated, "file:definition" (`code` without its lines)."""
        return {c.split(" (")[0] for c in self.code}

    @property
    def equivalent(self) -> int:
        return sum(1 for s in self.survivors if s.reason)

    @property
    def survived(self) -> int:
        """The survivors no written reason explains."""
        return sum(1 for s in self.survivors if not s.reason)

    @property
    def score(self) -> float | None:
        """(killed + equivalent) / mutants, None when none ran."""
        return (self.killed + self.equivalent) / self.mutants if self.mutants else None

    @property
    def clean(self) -> bool:
        """Every mutant killed or explained, all of them run, and no error (a body with nothing cosmic-ray can
        mutate, such as a single call with no operator or number, has no mutant and is clean)."""
        return self.complete and not self.error and self.survived == 0


def load_results(path: Path = MUTANTS_FILE, equivalents: dict[tuple[str, str], str] | None = None
                 ) -> tuple[dict[str, MutationResult], dict]:
    """({requirement id: MutationResult}, the file's "run" record) of a results file, survivors explained by
    `equivalents` (`load_equivalents`); ({}, {}) when the file is missing. ValueError for a file not of that
    shape."""
    if not path.is_file():
        return {}, {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        entries = data["requirements"]
        results = {}
        for rid, e in entries.items():
            survivors = [Survivor(id=s["id"], operator=s.get("operator", ""), diff=s.get("diff", ""),
                                  reason=_reason(equivalents or {}, rid, s["id"]))
                         for s in e.get("survivors", [])]
            results[rid] = MutationResult(
                mutants=int(e["mutants"]), killed=int(e["killed"]), survivors=survivors, date=e.get("date", ""),
                seconds=float(e.get("seconds", 0)), complete=bool(e.get("complete", True)),
                error=e.get("error", ""),
                code=[f"{c['file']}:{c['definition']} ({c['start']}-{c['end']})" for c in e.get("code", [])])
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"{path}: not a mutation results file ({exc!r}).") from exc
    return results, data.get("run", {})


def _reason(equivalents: dict[tuple[str, str], str], requirement: str, mutant: str) -> str:
    return equivalents.get((requirement, mutant)) or equivalents.get(("*", mutant), "")


def score_drops(committed: dict[str, MutationResult], fresh: dict[str, MutationResult]) -> list[str]:
    """One line for each requirement that a fresh run finds worse than the committed results: its proving tests
    fail unmutated; or a mutant survives, unexplained, that is not among the committed run's survivors (one its
    tests killed then, or a new one in changed code) in a definition the committed run mutated too — read even from
    a run the budget stopped; or, for a complete run of the same definitions, its score is lower. A requirement the
    committed results do not have is not compared; a definition the committed run did not mutate (code its
    requirement took on since, or a private helper first mutated now) has no committed figures to fall below."""
    lines = []
    for rid, new in sorted(fresh.items()):
        old = committed.get(rid)
        if old is None:
            continue
        known = {s.id for s in old.survivors}
        compared = old.definitions
        same_code = compared == new.definitions
        new_survivors = [s.id for s in new.survivors if not s.reason and s.id not in known
                         and (s.id.rsplit(":", 1)[0] in compared or not old.code)]
        if new.error:
            lines.append(f"{rid}: {new.error}")
        elif new_survivors:
            lines.append(f"{rid}: {len(new_survivors)} mutants survive that the committed run did not let through: "
                         + ", ".join(new_survivors))
        elif (same_code and new.complete and old.score is not None and new.score is not None
              and new.score < old.score - 1e-9):
            lines.append(f"{rid}: mutation score {new.score:.0%} ({new.killed} killed, {new.survived} survived of "
                         f"{new.mutants}) below the committed {old.score:.0%}")
    return lines


def touched_requirements(rows: Iterable, changed: Iterable[str]) -> list[str]:
    """The ids of the requirement rows (`matrix.RequirementRow`: .id, .code, .tests) whose code files or proving
    test files are among the `changed` paths (as `git diff --name-only` gives them)."""
    changed = set(changed)
    picked = []
    for r in rows:
        files = {ref.partition(":")[0] for ref in r.code} | {t.nodeid.partition("::")[0] for t in r.tests}
        if files & changed:
            picked.append(r.id)
    return picked
