"""PHH imports streamed (issue 35, item 4): a document read hand by hand gives the hands `sections` gives when it reads
it whole (or is read whole when it cannot be cut), and an import holds one batch of parsed hands at a time, writing
each batch before it reads the next hands."""
import weakref
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from apps.feed.phh import ParsedHand, PhhError, PhhSource, open_sections, sections
from apps.feed.services import phh_imports
from apps.feed.services.phh_imports import import_phh
from apps.rounds.models import RoundOfPlay
from tests.factories import JackpotFactory, RakeStructureFactory

PHH_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "phh"
PLURIBUS = PHH_DIR / "pluribus"
D = Decimal

HAND = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ['d dh p1 AsKd', 'd dh p2 7c2d', 'p2 f']
"""


@pytest.fixture
def table():
    table = RakeStructureFactory(table__small_blind=D("50"), table__big_blind=D("100"), table__seats=6,
                                 maximum=D("15.00"), minimum_pot=D("10.00")).table
    JackpotFactory(casino=table.casino, minimum_pot=D("20.00"), contribution_amount=D("1.00"))
    return table


def whole_or_error(text: str, name: str):
    try:
        return sections(text, name=name)
    except PhhError as exc:
        return str(exc)


def streamed_or_error(source: PhhSource):
    try:
        return list(open_sections(source))
    except PhhError as exc:
        return str(exc)


def test_a_document_read_hand_by_hand_gives_the_hands_read_whole(tmp_path):
    """Every Pluribus file and every single-hand file, as a text and as a file: the same labels and fields."""
    paths = sorted(PLURIBUS.glob("*.phhs"))[:5] + sorted(PHH_DIR.glob("*.phh"))
    for path in paths:
        text = path.read_text()
        expected = sections(text, name=path.name)
        assert list(open_sections(PhhSource(name=path.name, text=text))) == expected
        found = open_sections(PhhSource(name=path.name, path=path))
        assert found.count == len(expected)
        assert list(found) == expected
        assert list(found) == expected  # read again from the file


@pytest.mark.parametrize("text", [
    f"[1]\n{HAND}\n[2] # a comment\n{HAND}",  # a header with a comment
    f"[1]\n{HAND}\n[1.extra]\nnote = 'x'\n",  # a dotted header adding to hand 1
    f"hand = 3\n[1]\n{HAND}",  # a field before the first header
    f"[1]\n{HAND}\n[2]\n{HAND}\n[1]\n{HAND}",  # a header written twice: not TOML
    f"[2]\n{HAND}\n[1]\n{HAND.replace('7c2d', '7c3d')}",  # whole numbers out of order
    f"[a]\n{HAND}\n[b]\n{HAND}\n[a]\n{HAND}",  # a named header written twice
    f"[1]\n{HAND}comment = '''\n[2]\n'''\n",  # a header-like line inside a multi-line string
    f"[1]\n{HAND}\n[2]\n{HAND}\n[3]\nactions = [\n",  # TOML that cannot be read, past the first hands
    "",  # no hand
    "# nothing but a comment\n",
    f"[1]\n{HAND}\n['2\\u0007']\n{HAND}",  # a header with a control character
    HAND,  # one hand (.phh)
])
def test_a_document_that_cannot_be_cut_is_read_whole_with_the_same_hands_or_refusal(text, tmp_path):
    """Whatever cannot be read header by header is read whole: the same hands, or the same refusal of the whole
    document (nothing of a text that is not PHH is taken in)."""
    expected = whole_or_error(text, "x.phhs")
    assert streamed_or_error(PhhSource(name="x.phhs", text=text)) == expected
    path = tmp_path / "x.phhs"
    path.write_text(text)
    assert streamed_or_error(PhhSource(name="x.phhs", path=path)) == expected


@pytest.mark.django_db(transaction=True)
def test_an_import_holds_one_batch_of_parsed_hands_at_a_time_and_writes_it_before_reading_on(table, monkeypatch):
    """Streamed (issue 35): while a multi-hand text is imported, no more than `batch_size` parsed hands are alive at
    once, and the rounds of the earlier batches are committed before the last hands are read — the import's memory
    does not grow with the number of hands."""
    path = sorted(PLURIBUS.glob("*.phhs"))[0]
    hands = open_sections(PhhSource(name=path.name, path=path)).count
    batch_size = 10
    assert hands > 4 * batch_size
    alive, most_alive, stored_when_read = [0], [0], []
    parse = phh_imports.parse_sections

    def gone():
        alive[0] -= 1

    def counted(found, **kwargs):
        for hand in parse(found, **kwargs):
            assert isinstance(hand, ParsedHand)
            alive[0] += 1
            weakref.finalize(hand, gone)
            most_alive[0] = max(most_alive[0], alive[0])
            stored_when_read.append(RoundOfPlay.objects.filter(table=table).count())
            yield hand

    monkeypatch.setattr(phh_imports, "parse_sections", counted)
    summary = import_phh(casino=table.casino, path=path, name=path.name, table=table, batch_size=batch_size)

    assert summary.imported == hands == len(stored_when_read)
    assert most_alive[0] <= batch_size
    assert stored_when_read[-1] >= hands - batch_size  # every batch but the last written before its hands were read
    assert stored_when_read[0] == 0


@pytest.mark.django_db
def test_a_file_that_is_not_utf8_is_refused_whole_and_the_others_go_in(table, tmp_path):
    """A file read line by line that turns out not to be UTF-8 text is refused whole (nothing of it stored, even past
    its first hands) and the folder's other files go in."""
    good = tmp_path / "a.phhs"
    good.write_text(f"[1]\n{HAND.replace('[1, 2]', '[50, 100]').replace('= 2', '= 100')}")
    bad = tmp_path / "b.phhs"
    bad.write_bytes(f"[1]\n{HAND}\n".encode() + f"[2]\n{HAND}".encode().replace(b"AsKd", b"As\xffd"))
    out = StringIO()
    with pytest.raises(CommandError, match="1 file\\(s\\) refused"):
        call_command("import_phh", str(tmp_path), "--table", str(table.number), "--no-progress", stdout=out)
    assert "b.phhs: cannot be read as UTF-8 text" in out.getvalue()
    assert RoundOfPlay.objects.filter(source_name__startswith="b.phhs").count() == 0
    assert RoundOfPlay.objects.filter(source_name__startswith="a.phhs").count() == 1
