"""Three mutants of the hand engine that the audit behind issue 36 found the compliance matrix's tests let through:
a pytest plugin (`-p tests.compliance.mutants`) that, when COMPLIANCE_MUTANT names one, patches apps.hands.rankings
for the whole run. tests/compliance/test_mutants.py runs the tests the matrix links to each mutant's requirement under
it and expects them to fail.

- two_pair_as_pair: a four-card two pair is scored as a pair (N.J.A.C. 13:69F-27.3(b)6);
- a23_not_a_straight: A-2-3 is no straight (14.3(c)4);
- wheel_not_a_straight: the five-card wheel A-2-3-4-5 is no straight (14.3(a)).
"""
import os

from apps.hands import rankings


def _two_pair_as_pair(original):
    def mutant(shape):
        category = original(shape)
        return rankings.FourCardCategory.PAIR if category is rankings.FourCardCategory.TWO_PAIR else category
    return mutant


def _no_ace_low_straight_of(size: int):
    def patch(original):
        def mutant(ranks, *, ace_low=True):
            if len(ranks) == size and sorted(ranks) == [*range(2, size + 1), 14]:
                return None
            return original(ranks, ace_low=ace_low)
        return mutant
    return patch


#: name -> (the function of apps.hands.rankings replaced, the mutant made from the original)
MUTANTS = {
    "two_pair_as_pair": ("_four_category", _two_pair_as_pair),
    "a23_not_a_straight": ("_straight_high", _no_ace_low_straight_of(3)),
    "wheel_not_a_straight": ("_straight_high", _no_ace_low_straight_of(5)),
}


def pytest_configure(config):
    name = os.environ.get("COMPLIANCE_MUTANT")
    if name:
        function, make = MUTANTS[name]
        setattr(rankings, function, make(getattr(rankings, function)))
