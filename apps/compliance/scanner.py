"""Find where each clause of N.J.A.C. 13:69F is cited: in the docstrings of the code (modules, and classes,
functions and methods under apps/, private ones included: a helper that cites what it implements is that code) and
in the tests (their names and docstrings, under tests/). Pure Python: the source files are read with `ast`, nothing
is imported, no Django.

How a citation is read:

- In text (a docstring): "N.J.A.C. 13:69F-14.19(b)", "14.19(b)3", "(14.14(d))", and the lists the code writes,
  "14.20(d), (e)2, 3" (14.20(d), 14.20(e)2, 14.20(e)3), "14.19(k), (p)", "14.3(e) and (f)", ranges
  "14.19(d)-(f)" and "(b)1 through 4". Numbers such as "$14.00" are not citations.
- In a test's name: `test_14_19_b_3_...` is 14.19(b)3; `test_14_13a_l_...` is 14.13A(l); several paragraphs in
  order are each cited (`test_14_19_c_k_...`, `test_14_3_e_f_...`, `test_14_13a_f_and_h_...`, `test_14_12b_l_1_to_4_`);
  a roman item goes with its numbered paragraph (`test_14_11_f_2_i_...` is 14.11(f)2i). Reading stops at the first
  word that is not a paragraph (`test_14_19_i_a_dealer_...` is 14.19(i): "a" comes before "i", so it is a word).
- A citation deeper than the listed clauses (a roman item) counts for the nearest listed clause above it; a
  citation of no listed clause is kept aside as unknown (`Scan.unknown`).
- A requirement's id in code's docstring, "14.13A(j)-three-cards" or "N.J.A.C. 13:69F-14.19(f)1-full" (a clause id,
  a hyphen and a word starting with a letter, as clauses.toml names requirements), cites that requirement alone,
  not its clause (`requirement_citations`): the code implements that one thing the clause asks. A clause's
  citation cites every requirement of it. A requirement id clauses.toml does not list is kept in
  `Scan.unknown_requirements`, which the matrix refuses.

What a test proves is read only from its `@pytest.mark.proves("14.19(f)1-daily", "14.3(a)")` marker (on the
function, or on its `Test*` class for every test in it): requirement ids as clauses.toml lists them, written as
string literals. A test's name and docstring only mention clauses; they are read for `Scan.unknown` (a mention of
no listed clause) and prove nothing. A marker argument that is not a string literal is kept as "<not a string:
...>", which no requirement matches, so the matrix refuses it.
"""
import ast
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .regulations import SECTION, parent_ids, split_id

_PART = r"(?:\(([a-z])\)(\d{1,2})?((?:i{1,3}|iv|vi{0,3}|ix|x)(?![a-z]))?)"
_ANCHOR = re.compile(rf"(?:(?<=13:69F-)|(?<![\w.$:,/-]))({SECTION})(?!\d|\.\d){_PART}?")
_JOIN = re.compile(r"\s*(,|and|or|-|–|to|through)\s*")
_SIBLING_LETTER = re.compile(_PART)
_SIBLING_NUMBER = re.compile(r"(\d{1,2})((?:i{1,3}|iv|vi{0,3}|ix|x)(?![a-z]))?(?![\d.%$])")
_RANGE = {"-", "–", "to", "through"}
_REQUIREMENT = re.compile(rf"(?:(?<=13:69F-)|(?<![\w.$:,/-]))({SECTION}(?!\d|\.\d){_PART}?)-([a-z][a-z0-9]*(?:-[a-z0-9]+)*)"
                          r"(?![\w-])")
_ROMAN = {"i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"}
_TEST_SECTION = re.compile(r"^test_(14|20|27)_(\d{1,2})([ab]?)_?(.*)$")


def _compose(section: str, letter: str, number: str, roman: str) -> str:
    return section + (f"({letter})" if letter else "") + (number if letter else "") + (roman if number else "")


def citations_in_text(text: str) -> list[str]:
    """The clause ids a piece of text cites, in order, without repeats (see the module for the forms read).
    Ids are as written (a roman item stays: "14.9(i)2ii"); `Scan` maps them to listed clauses."""
    found: list[str] = []
    for anchor in _ANCHOR.finditer(text):
        if _REQUIREMENT.match(text, anchor.start()):
            continue  # a requirement's id ("14.19(f)1-full"): requirement_citations reads it
        section, letter, number, roman = (g or "" for g in anchor.groups())
        found.append(_compose(section, letter, number, roman))
        pos = anchor.end()
        while letter and (join := _JOIN.match(text, pos)):
            word, after = join.group(1), join.end()
            if (sib := _SIBLING_LETTER.match(text, after)) is not None:
                new_letter, new_number, new_roman = (g or "" for g in sib.groups())
                if word in _RANGE and not number and not new_number and new_letter > letter:
                    found += [f"{section}({chr(c)})" for c in range(ord(letter) + 1, ord(new_letter))]
                letter, number, roman = new_letter, new_number, new_roman
            elif number and (sib := _SIBLING_NUMBER.match(text, after)) is not None:
                new_number, new_roman = sib.group(1), sib.group(2) or ""
                if word in _RANGE and int(new_number) > int(number):
                    found += [f"{section}({letter}){n}" for n in range(int(number) + 1, int(new_number))]
                number, roman = new_number, new_roman
            else:
                break
            found.append(_compose(section, letter, number, roman))
            pos = sib.end()
    return list(dict.fromkeys(found))


def requirement_citations(text: str) -> list[str]:
    """The requirement ids a piece of text cites ("14.13A(j)-three-cards"), in order, without repeats; see the
    module. Whether clauses.toml lists them is the scan's to say."""
    return list(dict.fromkeys(f"{m.group(1)}-{m.group(5)}" for m in _REQUIREMENT.finditer(text)))


def citations_in_test_name(name: str) -> list[str]:
    """The clause ids a test's name cites (`test_14_19_b_3_...` -> ["14.19(b)3"]); [] for a name that starts with
    no section. See the module for how the words after the section are read."""
    match = _TEST_SECTION.match(name)
    if not match:
        return []
    section = f"{match.group(1)}.{match.group(2)}{match.group(3).upper()}"
    if not re.fullmatch(SECTION, section):
        return []
    words = match.group(4).split("_") if match.group(4) else []
    found: list[str] = []
    letter = number = roman = ""
    joiner = ""
    for word in words:
        if word in {"and", "to"} and letter:
            joiner = word
            continue
        if number and word in _ROMAN and not joiner:
            roman = word
            found[-1] = _compose(section, letter, number, roman)
        elif len(word) == 1 and word.isalpha() and (not letter or word > letter):
            if joiner == "to" and not number:
                found += [f"{section}({chr(c)})" for c in range(ord(letter) + 1, ord(word))]
            letter, number, roman = word, "", ""
            found.append(_compose(section, letter, number, roman))
        elif word.isdigit() and letter and len(word) <= 2 and (not number or int(word) > int(number)):
            if joiner == "to" and number:
                found += [f"{section}({letter}){n}" for n in range(int(number) + 1, int(word))]
            if not number:  # "b_3" cites (b)3, not (b) as well
                found.pop()
            number, roman = word, ""
            found.append(_compose(section, letter, number, roman))
        else:
            break
        joiner = ""
    return list(dict.fromkeys(found)) or [section]


@dataclass(frozen=True)
class CodeRef:
    """A public definition (or a module) whose docstring cites clauses or requirements: `ref` as
    "apps/x/y.py:Class.method" (a module: "apps/x/y.py"), `line` its first line, `cites` the clause ids as written,
    `requirements` the requirement ids as written."""

    ref: str
    line: int
    cites: tuple[str, ...]
    requirements: tuple[str, ...] = ()


@dataclass(frozen=True)
class CitingTest:
    """A test function that proves requirements or mentions clauses: `nodeid` as pytest names it
    ("tests/x/test_y.py::test_z" or "...::TestClass::test_z"), `named` the ids its name cites, `cites` those its
    docstring cites (as written; mentions, which prove nothing), `proves` the requirement ids of its
    `pytest.mark.proves` markers (its class's first, then its own; as written)."""

    nodeid: str
    line: int
    named: tuple[str, ...]
    cites: tuple[str, ...]
    proves: tuple[str, ...] = ()


#: A definition anyone may cite: a class, a function or a method.
Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _definitions(tree: ast.Module) -> Iterable[tuple[str, Definition]]:
    """(qualified name, node) of the module's classes and functions and of the classes' methods, private ones
    included; nested functions are not definitions anyone cites."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name, node
            if isinstance(node, ast.ClassDef):
                for inner in node.body:
                    if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                        yield f"{node.name}.{inner.name}", inner


def docstring_citations(node: ast.Module | Definition) -> tuple[list[str], list[str]]:
    """(clauses, requirement ids) a module's or a definition's docstring cites (`citations_in_text`,
    `requirement_citations`)."""
    doc = ast.get_docstring(node) or ""
    return citations_in_text(doc), requirement_citations(doc)


def _parse(path: Path) -> ast.Module | None:
    try:
        return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (SyntaxError, UnicodeDecodeError, OSError):
        return None


def scan_code(root: Path, *, package: str = "apps", exclude: Iterable[str] = ("compliance",)) -> list[CodeRef]:
    """The code under `root/package` that cites clauses or requirements in its docstrings, sorted by reference.
    Migrations and the packages named in `exclude` (the matrix's own code, whose docstrings quote citations as
    examples) are skipped."""
    refs: list[CodeRef] = []
    base = root / package
    skipped = {base / name for name in exclude}
    for path in sorted(base.rglob("*.py")):
        if "migrations" in path.parts or any(path.is_relative_to(s) for s in skipped):
            continue
        tree = _parse(path)
        if tree is None:
            continue
        rel = path.relative_to(root).as_posix()
        named: list[tuple[str, int, ast.Module | Definition]] = [
            (rel, 1, tree), *((f"{rel}:{name}", node.lineno, node) for name, node in _definitions(tree))]
        for ref, line, node in named:
            cites, requirements = docstring_citations(node)
            if cites or requirements:
                refs.append(CodeRef(ref=ref, line=line, cites=tuple(cites), requirements=tuple(requirements)))
    return refs


def _is_proves_marker(node: ast.expr) -> bool:
    """Whether a decorator is a call of `pytest.mark.proves` (or `mark.proves`, imported from pytest)."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) or node.func.attr != "proves":
        return False
    owner = node.func.value
    return (isinstance(owner, ast.Attribute) and owner.attr == "mark") or (isinstance(owner, ast.Name)
                                                                            and owner.id == "mark")


def proves_of(node: Definition) -> list[str]:
    """The requirement ids the `pytest.mark.proves(...)` decorators of a function or class name, in order; an
    argument that is not a string literal as "<not a string: SOURCE>" (no requirement has such an id)."""
    found: list[str] = []
    for decorator in node.decorator_list:
        if not _is_proves_marker(decorator):
            continue
        assert isinstance(decorator, ast.Call)
        for arg in [*decorator.args, *(k.value for k in decorator.keywords)]:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.append(arg.value.strip())
            else:
                found.append(f"<not a string: {ast.unparse(arg)}>")
    return found


def scan_tests(root: Path, *, package: str = "tests") -> list[CitingTest]:
    """The test functions under `root/package` (test_*.py; functions `test_*`, also methods of `Test*` classes)
    that prove requirements (`pytest.mark.proves` on the function or its class) or mention clauses by their name or
    their docstring."""
    refs: list[CitingTest] = []
    for path in sorted((root / package).rglob("test_*.py")):
        tree = _parse(path)
        if tree is None:
            continue
        rel = path.relative_to(root).as_posix()
        class_proves = {node.name: proves_of(node) for node in tree.body if isinstance(node, ast.ClassDef)}
        for name, node in _definitions(tree):
            if isinstance(node, ast.ClassDef):
                continue
            owner, _, func = name.rpartition(".")
            if not func.startswith("test") or (owner and not owner.startswith("Test")):
                continue
            named = citations_in_test_name(func)
            cites = citations_in_text(ast.get_docstring(node) or "")
            proves = list(dict.fromkeys([*class_proves.get(owner, []), *proves_of(node)]))
            if named or cites or proves:
                refs.append(CitingTest(nodeid=f"{rel}::{name.replace('.', '::')}", line=node.lineno,
                                       named=tuple(named), cites=tuple(cites), proves=tuple(proves)))
    return refs


def listed(clause_id: str, known: set[str] | frozenset[str], *, walk_up: bool = False) -> str | None:
    """The listed clause a cited id counts for: itself when listed, else the nearest listed clause above it when
    the citation goes deeper than the list (a roman item); None when the id is malformed or no listed clause
    holds it (e.g. 14.7(z)). With `walk_up` (a test's name, where "a" may be a word: `test_14_18_a_list_...`), an
    id that is not listed counts for its nearest listed ancestor."""
    try:
        split_id(clause_id)
    except ValueError:
        return None
    if clause_id in known:
        return clause_id
    section, letter, number, roman = split_id(clause_id)
    if roman and (up := f"{section}({letter}){number}") in known:
        return up
    if walk_up:
        return next((p for p in parent_ids(clause_id) if p in known), None)
    return None


@dataclass
class Scan:
    """What the source tree cites, per listed clause: `code[id]` -> [CodeRef] (code citing the clause),
    `tests[id]` -> [CitingTest] (tests that mention it, which prove nothing); per requirement id as written,
    `requirement_code[id]` -> [CodeRef] (code citing that requirement alone) and `proofs[id]` -> [CitingTest] (the
    tests whose `pytest.mark.proves` names it; the matrix refuses an id clauses.toml does not list, in either);
    the mentions of no listed clause in `unknown` (id as written -> where)."""

    code: dict[str, list[CodeRef]] = field(default_factory=lambda: defaultdict(list))
    requirement_code: dict[str, list[CodeRef]] = field(default_factory=lambda: defaultdict(list))
    tests: dict[str, list[CitingTest]] = field(default_factory=lambda: defaultdict(list))
    unknown: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    proofs: dict[str, list[CitingTest]] = field(default_factory=lambda: defaultdict(list))


def scan(root: Path, known: set[str] | frozenset[str]) -> Scan:
    """Scan the code (apps/) and the tests (tests/) under `root`: file each clause citation under the listed clause
    it counts for (`listed`), each requirement citation of code under its id, and each test that proves
    requirements under the ids its markers name."""
    result = Scan()
    for ref in scan_code(root):
        for cited in dict.fromkeys(filter(None, (listed(c, known) for c in ref.cites))):
            result.code[cited].append(ref)
        for c in ref.cites:
            if listed(c, known) is None:
                result.unknown[c].append(ref.ref)
        for requirement in ref.requirements:
            result.requirement_code[requirement].append(ref)
    for test in scan_tests(root):
        for requirement in test.proves:
            result.proofs[requirement].append(test)
        mapped = [listed(c, known, walk_up=True) for c in test.named] + [listed(c, known) for c in test.cites]
        for cited in dict.fromkeys(filter(None, mapped)):
            result.tests[cited].append(test)
        for c, where in [*((c, listed(c, known, walk_up=True)) for c in test.named),
                         *((c, listed(c, known)) for c in test.cites)]:
            if where is None:
                result.unknown[c].append(test.nodeid)
    return result


def parents_of(clause_id: str) -> list[str]:
    """The ids above a clause, nearest first (re-exported for the matrix)."""
    return parent_ids(clause_id)
