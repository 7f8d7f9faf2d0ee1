"""Reacting to the hand feed: every showdown is checked by the engine for a bad beat."""
from apps.core.money import ZERO

from .models import Jackpot, JackpotStatus
from .selectors import qualifies_as_bad_beat
from .services import open_claims_for_round


def check_showdown_for_bad_beat(sender, *, round_of_play, settlement, **kwargs) -> None:
    """Open a pending claim for each jackpot the round qualifies for (N.J.A.C. 13:69F-14.19(a), (i)).

    A quick look at the settled hands first: only when a hand at the showdown that won nothing of the main pot
    reaches some jackpot's qualifying hand is the round judged in full (players dealt in, both hole cards,
    14.19(b)3); a supervisor then verifies the claim.
    """
    if not round_of_play.went_to_showdown or not round_of_play.table.bad_beat_participation or not settlement.pots:
        return
    jackpots = [j for j in Jackpot.objects.filter(casino_id=round_of_play.table.casino_id)
                if j.status != JackpotStatus.DISCONTINUED]
    if not jackpots:
        return
    main = settlement.pots[0]
    winners = {seat for seat, amount in main.awards.items() if amount > ZERO}
    losing = [settlement.hands[s].high for s in main.pot.eligible
              if s not in winners and s in settlement.hands and settlement.hands[s].high is not None]
    if any(qualifies_as_bad_beat(jackpot=j, losing=value) for j in jackpots for value in losing):
        open_claims_for_round(round_of_play=round_of_play)
