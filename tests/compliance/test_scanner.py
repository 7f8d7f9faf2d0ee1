"""How citations of N.J.A.C. 13:69F are read from docstrings and test names, and what a test proves from its
`pytest.mark.proves` marker, registered for --strict-markers (apps/compliance/scanner.py)."""
import textwrap

import pytest

from apps.compliance.regulations import parent_ids, sort_key, split_id
from apps.compliance.scanner import (
    citations_in_test_name,
    citations_in_text,
    listed,
    requirement_citations,
    scan,
    scan_code,
    scan_tests,
)


@pytest.mark.parametrize("text,ids", [
    ("Segregate a pot's contribution. N.J.A.C. 13:69F-14.19(c).", ["14.19(c)"]),
    ("Contributions to a system's payout (N.J.A.C. 13:69F-14.20(d), (e)2, 3): each", ["14.20(d)", "14.20(e)2",
                                                                                    "14.20(e)3"]),
    ("claims (14.19(i)1, 2) and displays (14.19(k), (p))", ["14.19(i)1", "14.19(i)2", "14.19(k)", "14.19(p)"]),
    ("low rankings (14.3(e) and (f))", ["14.3(e)", "14.3(f)"]),
    ("counted (14.19(d)-(f))", ["14.19(d)", "14.19(e)", "14.19(f)"]),
    ("the information in 14.19(b)1 through 4 above", ["14.19(b)1", "14.19(b)2", "14.19(b)3", "14.19(b)4"]),
    ("odd chip (14.9(i)2ii) and a kill (14.11(i))", ["14.9(i)2ii", "14.11(i)"]),
    ("games of 14.12A and 14.13A(k); ties by 20.3(c) and 27.3", ["14.12A", "14.13A(k)", "20.3(c)", "27.3"]),
    ("$14.00 a pot, 13:69E-1.18, 8.3 and 14.50 are no citations", []),
])
def test_citations_in_docstrings(text, ids):
    assert citations_in_text(text) == ids


@pytest.mark.parametrize("text,clauses,requirements", [
    ("The four cards (14.13A(j)-three-cards).", [], ["14.13A(j)-three-cards"]),
    ("When full (N.J.A.C. 13:69F-14.19(f)1-full) and daily (14.19(f)1-daily)", [], ["14.19(f)1-full",
                                                                                    "14.19(f)1-daily"]),
    ("Odd chips (14.11(f)2i-odd) and the wheel, 14.3(a)-ace-low; kills (14.11(i))", ["14.11(i)"],
     ["14.11(f)2i-odd", "14.3(a)-ace-low"]),
    # a range, a list after a requirement and a hyphenated word that starts no requirement are read as before
    ("counted (14.19(d)-(f)), items 14.9(i)1-3", ["14.19(d)", "14.19(e)", "14.19(f)", "14.9(i)1", "14.9(i)2",
                                                  "14.9(i)3"], []),
    ("split (14.13A(j)-split, 14.13A(j)1 through 4)", ["14.13A(j)1", "14.13A(j)2", "14.13A(j)3", "14.13A(j)4"],
     ["14.13A(j)-split"]),
    ("re-14.19(c)-full is no citation; 14.19(c)-Full cites the clause", ["14.19(c)"], []),
])
def test_a_requirement_cited_by_its_id_is_not_a_citation_of_its_clause(text, clauses, requirements):
    """Code implementing one part of a multi-part clause cites that part ("14.13A(j)-three-cards"): the scanner
    reads it as that requirement alone, never as its clause (which would make the code every part's)."""
    assert citations_in_text(text) == clauses
    assert requirement_citations(text) == requirements


@pytest.mark.parametrize("name,ids", [
    ("test_14_19_b_3_both_hole_cards_must_play", ["14.19(b)3"]),
    ("test_14_13a_l_2_suited_ace_four_five", ["14.13A(l)2"]),
    ("test_14_11_f_2_i_odd_unit_to_the_high_half", ["14.11(f)2i"]),
    ("test_14_19_c_k_the_app_role_may_not_update", ["14.19(c)", "14.19(k)"]),
    ("test_14_19_i_2_j_payout_recorded", ["14.19(i)2", "14.19(j)"]),
    ("test_14_3_b_2_and_6_wheel", ["14.3(b)2", "14.3(b)6"]),
    ("test_14_12b_l_1_to_4_badugi_order", ["14.12B(l)1", "14.12B(l)2", "14.12B(l)3", "14.12B(l)4"]),
    ("test_14_13a_f_and_h_mambo_first_to_act", ["14.13A(f)", "14.13A(h)"]),
    ("test_14_19_i_a_dealer_cannot_verify", ["14.19(i)"]),  # "a" comes before "i": a word, not a paragraph
    ("test_14_3_c_a_2_3_lowest_straight", ["14.3(c)"]),
    ("test_14_14_b_3_iii_every_20_or_30_minutes", ["14.14(b)3iii"]),
    ("test_14_14_rake_by_game", ["14.14"]),
    ("test_20_3_c_highest_card", ["20.3(c)"]),
    ("test_who_reads_the_page", []),
    ("test_14_99_no_such_section", []),
])
def test_citations_in_test_names(name, ids):
    assert citations_in_test_name(name) == ids


def test_a_citation_deeper_than_the_list_counts_for_its_numbered_paragraph():
    known = {"14.9", "14.9(i)", "14.9(i)2"}
    assert listed("14.9(i)2ii", known) == "14.9(i)2"
    assert listed("14.9(i)2", known) == "14.9(i)2"
    assert listed("14.9(z)", known) is None
    assert listed("nonsense", known) is None
    assert listed("14.9(a)", known, walk_up=True) == "14.9"  # a test's name: "test_14_9_a_..." may be a word


def test_ids_split_order_and_parents():
    assert split_id("14.12A(l)1") == ("14.12A", "l", "1", "")
    assert parent_ids("14.19(b)3") == ["14.19(b)", "14.19"]
    ids = ["14.10", "14.2(a)", "14.12A", "14.12", "14.2", "14.2(a)1", "20.3"]
    assert sorted(ids, key=sort_key) == ["14.2", "14.2(a)", "14.2(a)1", "14.10", "14.12", "14.12A", "20.3"]
    with pytest.raises(ValueError):
        split_id("14.19b")


def test_the_scan_reads_docstrings_private_ones_too_and_test_functions_without_importing_them(tmp_path):
    (tmp_path / "apps" / "x").mkdir(parents=True)
    (tmp_path / "apps" / "x" / "services.py").write_text(textwrap.dedent('''
        """Jackpot writes (N.J.A.C. 13:69F-14.19)."""
        raise RuntimeError("never imported")

        def take(*, pot):
            """Take the contribution after the rake (14.19(c))."""

        def _helper():
            """A private helper says what it implements as any code does (14.19(q)-notice)."""

        def _quiet():
            """Nothing cited."""

        class Display:
            """Displays (14.19(k)), adjusted daily (14.19(k)-daily)."""
            def adjust(self):
                """Adjust (14.19(k)1)."""
    '''))
    (tmp_path / "tests" / "x").mkdir(parents=True)
    (tmp_path / "tests" / "x" / "test_y.py").write_text(textwrap.dedent('''
        raise RuntimeError("never imported")

        def test_14_19_c_after_the_rake():
            pass

        class TestDisplay:
            def test_adjusted(self):
                """The display follows the record (14.19(k)1)."""

        def helper_14_19_q():
            """Not a test (14.19(q))."""
    '''))
    code = {ref.ref: (ref.cites, ref.requirements) for ref in scan_code(tmp_path)}
    assert code == {"apps/x/services.py": (("14.19",), ()), "apps/x/services.py:take": (("14.19(c)",), ()),
                    "apps/x/services.py:Display": (("14.19(k)",), ("14.19(k)-daily",)),
                    "apps/x/services.py:Display.adjust": (("14.19(k)1",), ()),
                    "apps/x/services.py:_helper": ((), ("14.19(q)-notice",))}
    tests = {t.nodeid: (t.named, t.cites) for t in scan_tests(tmp_path)}
    assert tests == {"tests/x/test_y.py::test_14_19_c_after_the_rake": (("14.19(c)",), ()),
                     "tests/x/test_y.py::TestDisplay::test_adjusted": ((), ("14.19(k)1",))}


def test_the_proves_marker_is_registered_for_strict_markers(pytestconfig, request):
    """`--strict-markers` (the project's addopts) accepts `pytest.mark.proves` because the pytest configuration
    registers it (the suite's marked tests are collected at all only so); this test, unmarked, carries none."""
    assert "--strict-markers" in pytestconfig.getini("addopts")
    assert any(line.split(":")[0].strip().startswith("proves(") for line in pytestconfig.getini("markers"))
    assert request.node.get_closest_marker("proves") is None


def test_the_scan_reads_proves_markers_on_functions_and_classes(tmp_path):
    """Markers on a function, on its `Test*` class (for each of its tests), `mark.proves` imported from pytest;
    a marker argument that is not a string literal is kept as such (the matrix refuses it); mentions prove nothing."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_z.py").write_text(textwrap.dedent('''
        import pytest
        from pytest import mark

        REQ = "14.19(c)"

        @pytest.mark.proves("14.19(b)1", "14.19(f)1-daily")
        @pytest.mark.parametrize("x", [1, 2])
        def test_marked(x):
            pass

        @mark.proves(" 14.19(c) ")
        def test_imported_mark():
            pass

        @pytest.mark.proves(REQ)
        def test_not_a_literal():
            pass

        @pytest.mark.proves("14.20(d)1")
        class TestPosting:
            @pytest.mark.proves("14.20(d)1-information")
            def test_information(self):
                pass

            def test_participants(self):
                """Also mentions 14.20(e)2."""

        def test_14_19_q_only_named():
            """Cites 14.19(q) but proves nothing."""
    '''))
    found = {t.nodeid: (t.proves, t.named, t.cites) for t in scan_tests(tmp_path)}
    assert found == {
        "tests/test_z.py::test_marked": (("14.19(b)1", "14.19(f)1-daily"), (), ()),
        "tests/test_z.py::test_imported_mark": (("14.19(c)",), (), ()),
        "tests/test_z.py::test_not_a_literal": (("<not a string: REQ>",), (), ()),
        "tests/test_z.py::TestPosting::test_information": (("14.20(d)1", "14.20(d)1-information"), (), ()),
        "tests/test_z.py::TestPosting::test_participants": (("14.20(d)1",), (), ("14.20(e)2",)),
        "tests/test_z.py::test_14_19_q_only_named": ((), ("14.19(q)",), ("14.19(q)",)),
    }
    result = scan(tmp_path, frozenset({"14.19", "14.19(q)", "14.19(c)"}))
    assert sorted(result.proofs) == ["14.19(b)1", "14.19(c)", "14.19(f)1-daily", "14.20(d)1", "14.20(d)1-information",
                                     "<not a string: REQ>"]
    assert [t.nodeid for t in result.tests["14.19(q)"]] == ["tests/test_z.py::test_14_19_q_only_named"]
