"""Signals of the hand feed, so that higher apps react to a round without rounds knowing them."""
from django.dispatch import Signal

#: Sent inside the recording transaction once a round of play is settled.
#: kwargs: round_of_play (RoundOfPlay), settlement (apps.hands.Settlement of the pots as awarded).
round_settled = Signal()

#: Sent inside the recording transaction for every round, settled or called dead.
#: kwargs: round_of_play (RoundOfPlay), extra (dict of feed fields other apps may use, e.g. {"deck": "R-1"}).
round_recorded = Signal()
