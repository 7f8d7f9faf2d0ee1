"""Clause ids: how N.J.A.C. 13:69F is cited in this repo, and how the regulation's text is split into clauses.

A clause id is the section, then the paragraph letter, then the numbered paragraph: `14.19`, `14.19(b)`,
`14.19(b)3`. Lettered sections keep their capital: `14.12A(l)`. A citation may go deeper than the clauses listed
(`14.9(i)2ii`, a roman item); `parent_ids` walks it up to a listed one.

`parse_regulations` splits the regulation's text (the project's copy of 13:69F, kept outside the repo) into clauses
down to numbered paragraphs; the compliance data file (clauses.toml) was made from it and a test checks the two
agree when the text is present. Nothing here reads a file.
"""
import re
from dataclasses import dataclass

#: The sections of 13:69F the matrix covers: subchapter 14 and the rankings of 20.3 and 27.3.
SECTION = r"(?:14\.(?:1[0-9]|20|[1-9])(?:A|B)?|20\.3|27\.3)"
_SECTION_HEAD = re.compile(r"^(?:#+\s*)?13:69F-(\d+\.\d+[AB]?)\s+(.+?)\s*$")
_LETTER = re.compile(r"^\s*(?:-\s*)?\(([a-z])\)\s+(\S.*)$")
_NUMBER = re.compile(r"^\s*(?:-\s*)?(\d{1,2})\.\s+(\S.*)$")
_ROMAN = re.compile(r"^\s*(?:-\s*)?(i{1,3}|iv|v|vi{0,3}|ix|x)\.\s+(\S.*)$")
_ID = re.compile(r"^(\d+\.\d+[AB]?)(?:\(([a-z])\)(\d+)?([ivx]+)?)?$")


@dataclass(frozen=True)
class ParsedClause:
    """One clause of the regulation's text: `id` (e.g. "14.19(b)3"), `heading` (a section's title, else ""),
    `text` (its words, whitespace folded)."""

    id: str
    heading: str
    text: str


def split_id(clause_id: str) -> tuple[str, str, str, str]:
    """(section, letter, number, roman) of a clause id, "" for a missing part; ValueError for a malformed id."""
    match = _ID.match(clause_id)
    if not match:
        raise ValueError(f"Not a clause id: {clause_id!r}")
    return tuple(part or "" for part in match.groups())  # type: ignore[return-value]


def parent_ids(clause_id: str) -> list[str]:
    """The ids above `clause_id`, nearest first: "14.19(b)3" -> ["14.19(b)", "14.19"]."""
    section, letter, number, roman = split_id(clause_id)
    out = []
    if roman:
        out.append(f"{section}({letter}){number}")
    if number:
        out.append(f"{section}({letter})")
    if letter:
        out.append(section)
    return out


def sort_key(clause_id: str) -> tuple:
    """An order of ids that follows the regulation: 14.2 before 14.10, 14.12 before 14.12A, (b) before (b)1."""
    section, letter, number, roman = split_id(clause_id)
    major, minor = section.split(".")
    digits = re.match(r"\d+", minor)
    if digits is None:
        raise ValueError(f"Not a clause id: {clause_id!r}.")
    minor_num = int(digits.group())
    return (int(major), minor_num, minor[len(str(minor_num)):], letter, int(number or 0), len(roman), roman)


def parse_regulations(text: str) -> list[ParsedClause]:
    """Split the text of 13:69F (markdown, as the project keeps it) into clauses of the covered sections, down to
    numbered paragraphs, in the regulation's order. A section without lettered paragraphs (14.1, 14.17, 14.18) is
    one clause. Roman items and page-break continuations are folded into the clause above them. A lettered or
    numbered paragraph is taken only in sequence ((a), (b), ... and 1, 2, ...), so a citation that happens to begin
    a wrapped line is not mistaken for one."""
    clauses: dict[str, list[str]] = {}
    headings: dict[str, str] = {}
    section = letter = None
    current = ""  # the clause the lines go to (set with the first section)
    number = 0
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line == "---":
            continue
        if head := _SECTION_HEAD.match(line):
            section = head.group(1) if re.fullmatch(SECTION, head.group(1)) else None
            letter, number, current = None, 0, section or ""
            if section:
                headings[section] = head.group(2)
                clauses[section] = []
            continue
        if section is None:
            continue
        expected_letter = "a" if letter is None else chr(ord(letter) + 1)
        if (m := _LETTER.match(raw)) and m.group(1) == expected_letter and m.group(2)[0].isupper():
            letter, number = m.group(1), 0
            current = f"{section}({letter})"
            clauses[current] = [m.group(2)]
            continue
        if letter and (m := _NUMBER.match(raw)) and int(m.group(1)) == number + 1:
            number = int(m.group(1))
            current = f"{section}({letter}){number}"
            clauses[current] = [m.group(2)]
            continue
        if _ROMAN.match(raw) and number:
            clauses[current].append(line.lstrip("- "))
            continue
        clauses[current].append(line)
    return [ParsedClause(id=cid, heading=headings.get(cid, ""), text=" ".join(" ".join(words).split()))
            for cid, words in clauses.items()]
