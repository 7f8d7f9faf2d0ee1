"""Reacting to the hand feed: every showdown is checked by the engine for a bad beat."""
from apps import hands
from apps.core.money import ZERO

from .models import Jackpot
from .selectors import qualifies_as_bad_beat
from .services import open_claim


def check_showdown_for_bad_beat(sender, *, round_of_play, settlement, **kwargs) -> None:
    """Open a pending claim for each qualifying losing hand of the main pot (N.J.A.C. 13:69F-14.19(a), (i)).

    A losing hand is a hand at the showdown, eligible for the main pot, that won none of it; it qualifies
    when the engine ranks it at or above the jackpot's posted qualifying hand (14.19(b)3).
    """
    if not round_of_play.went_to_showdown or not round_of_play.table.bad_beat_participation:
        return
    jackpot = Jackpot.objects.filter(casino_id=round_of_play.table.casino_id).first()
    if jackpot is None or not settlement.pots:
        return
    main = settlement.pots[0]
    winners = [seat for seat, amount in main.awards.items() if amount > ZERO]
    if not winners:
        return
    best = max((settlement.hands[s].high for s in winners if s in settlement.hands and settlement.hands[s].high),
               default=None)
    for seat in main.pot.eligible:
        showdown = settlement.hands.get(seat)
        if seat in winners or showdown is None or showdown.high is None:
            continue
        if qualifies_as_bad_beat(jackpot=jackpot, losing=showdown.high):
            open_claim(jackpot=jackpot, round_of_play=round_of_play, seat=int(seat),
                       losing_hand=showdown.high.category.label, losing_cards=hands.format_cards(showdown.high.cards),
                       winning_hand=best.category.label if best else "",
                       winning_cards=hands.format_cards(best.cards) if best else "")
