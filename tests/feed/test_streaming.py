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
def test_an_import_holds_one_batch_of_parsed_hands_at_most_and_writes_it_before_reading_on(table, monkeypatch):
    """Streamed (issue 35): while a multi-hand text is imported, no more than one batch of parsed hands is alive at
    once, and the rounds of every earlier batch are committed before the next hands are read — the import's memory
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
    # each hand read finds every batch before its own committed
    assert stored_when_read == [n - n % batch_size for n in range(hands)]


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


def _pluribus_text(count: int, repeat: dict[int, int] | None = None) -> str:
    """The first `count` hands of the first Pluribus file as one text under headers [1]..[count]; `repeat` {n: m}
    writes hand m again as hand n."""
    path = sorted(PLURIBUS.glob("*.phhs"))[0]
    bodies = [body for _, body in _bodies(path.read_text())][:count]
    assert len(bodies) == count
    for n, m in (repeat or {}).items():
        bodies[n - 1] = bodies[m - 1]
    return "\n".join(f"[{n}]\n{body}" for n, body in enumerate(bodies, start=1))


def _bodies(text: str):
    import re
    parts = re.split(r"^\[(\d+)\]\s*$", text, flags=re.MULTILINE)
    return [(parts[i], parts[i + 1].strip() + "\n") for i in range(1, len(parts) - 1, 2)]


@pytest.mark.django_db(transaction=True)
def test_a_hand_repeated_from_the_batch_before_is_counted_stored_once(table, monkeypatch):
    """A hand of a batch that repeats one of the batch before (committed by then) is stored once, counted as already
    stored, and the summary names its round; every batch written in order, without the repeated hand."""
    write = phh_imports._write_batch
    writing = []

    def noted(batch, *args):
        writing.append(len(batch))
        return write(batch, *args)

    monkeypatch.setattr(phh_imports, "_write_batch", noted)
    text = _pluribus_text(30, repeat={12: 5})
    summary = import_phh(casino=table.casino, text=text, name="repeat.phhs", table=table, batch_size=10)

    assert (summary.imported, summary.already_stored, summary.refused) == (29, 1, 0)
    assert RoundOfPlay.objects.filter(table=table).count() == 29
    fifth = RoundOfPlay.objects.get(source_name="repeat.phhs#5")
    assert summary.existing_round_id == fifth.pk
    assert writing == [10, 9, 10]


@pytest.mark.django_db(transaction=True)
def test_an_error_writing_a_batch_goes_up_and_nothing_after_it_is_written(table, monkeypatch):
    """A batch the database refuses raises in the import: the batches before it stay committed, its rounds and the
    later ones are not written, nor read."""
    from django.db import OperationalError

    write = phh_imports._write_batch
    calls = []

    def failing_write(batch, *args):
        calls.append(len(batch))
        if len(calls) == 2:
            raise OperationalError("the database went away")
        return write(batch, *args)

    monkeypatch.setattr(phh_imports, "_write_batch", failing_write)
    with pytest.raises(OperationalError, match="went away"):
        import_phh(casino=table.casino, text=_pluribus_text(40), name="fails.phhs", table=table, batch_size=10)
    assert RoundOfPlay.objects.filter(table=table).count() == 10
    assert set(RoundOfPlay.objects.values_list("source_name", flat=True)) == {f"fails.phhs#{n}" for n in range(1, 11)}
    assert calls == [10, 10]  # the third batch was never written


@pytest.mark.django_db
def test_inside_a_transaction_of_the_caller_the_batches_are_written_in_its_thread(table, monkeypatch):
    """Inside the caller's transaction (whose rows another connection could not see) the import writes each batch in
    the caller's thread and connection, in turn."""
    import threading

    write = phh_imports._write_batch
    threads = []

    def noted(batch, *args):
        threads.append(threading.current_thread().name)
        return write(batch, *args)

    monkeypatch.setattr(phh_imports, "_write_batch", noted)
    summary = import_phh(casino=table.casino, text=_pluribus_text(25), name="inside.phhs", table=table, batch_size=10)
    assert summary.imported == 25
    assert threads == [threading.current_thread().name] * 3


@pytest.mark.django_db(transaction=True)
def test_files_imported_by_worker_processes_go_in_as_one_import_takes_them(table, tmp_path):
    """`import_phh --jobs 2` (apps.feed.services.import_phh_files): each file imported whole by one of two forked
    worker processes, on their own connections — every hand stored once (a hand two files hold too), a file that is
    not PHH refused whole and reported, the summaries added up in the files' order; importing again changes nothing."""
    first = _pluribus_text(30)
    (tmp_path / "a.phhs").write_text(first)
    (tmp_path / "b.phhs").write_text(first.replace("hand = ", "hand = 9"))  # the same hands under new ids
    (tmp_path / "c.phhs").write_text("[1]\nactions = [\n")  # not PHH: refused whole
    (tmp_path / "d.phhs").write_text(f"[1]\n{_bodies(first)[0][1]}")  # the first hand of a.phhs again
    out = StringIO()
    with pytest.raises(CommandError, match="1 file\\(s\\) refused"):
        call_command("import_phh", str(tmp_path), "--table", str(table.number), "--no-progress", "--jobs", "2",
                     stdout=out)
    report = out.getvalue()
    assert "Imported 60 rounds of play (table " in report and "; 1 already stored; 0 hand(s) refused; 1 file(s)" in report
    assert "c.phhs: " in report
    assert RoundOfPlay.objects.filter(table=table).count() == 60
    # d.phhs's hand is a.phhs's first: stored once, under the name of the file whose worker wrote it first (the two
    # workers run at once, so either may), every other hand under its own file's name.
    names = set(RoundOfPlay.objects.values_list("source_name", flat=True))
    shared = {"a.phhs#1", "d.phhs#1"}
    assert len(names & shared) == 1, names & shared
    assert names - shared == {f"a.phhs#{n}" for n in range(2, 31)} | {f"b.phhs#{n}" for n in range(1, 31)}

    again = StringIO()
    with pytest.raises(CommandError, match="1 file\\(s\\) refused"):
        call_command("import_phh", str(tmp_path), "--table", str(table.number), "--no-progress", "--jobs", "2",
                     stdout=again)
    assert "Imported 0 rounds of play (none); 61 already stored" in again.getvalue()
    assert RoundOfPlay.objects.count() == 60


def test_jobs_must_be_a_positive_number(tmp_path):
    (tmp_path / "a.phhs").write_text(f"[1]\n{HAND}")
    with pytest.raises(CommandError, match="at least 1"):
        call_command("import_phh", str(tmp_path), "--jobs", "-1", "--no-progress")
