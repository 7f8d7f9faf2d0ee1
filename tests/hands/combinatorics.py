"""Expected category counts of all five-card hands, derived by combinatorics (not by the code under test)."""
from math import comb


def five_card_category_counts() -> dict[str, int]:
    """Category name -> number of the 2,598,960 five-card hands, N.J.A.C. 13:69F-14.3(b)."""
    straights = 10
    counts = {
        "ROYAL_FLUSH": 4,
        "STRAIGHT_FLUSH": straights * 4 - 4,
        "FOUR_OF_A_KIND": 13 * 48,
        "FULL_HOUSE": 13 * comb(4, 3) * 12 * comb(4, 2),
        "FLUSH": comb(13, 5) * 4 - straights * 4,
        "STRAIGHT": straights * 4**5 - straights * 4,
        "THREE_OF_A_KIND": 13 * comb(4, 3) * comb(12, 2) * 4**2,
        "TWO_PAIR": comb(13, 2) * comb(4, 2) ** 2 * 11 * 4,
        "ONE_PAIR": 13 * comb(4, 2) * comb(12, 3) * 4**3,
        "HIGH_CARD": (comb(13, 5) - straights) * (4**5 - 4),
    }
    assert sum(counts.values()) == comb(52, 5) == 2_598_960
    return counts
