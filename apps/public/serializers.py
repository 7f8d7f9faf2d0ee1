"""The public feed's one representation (GET /api/public/<code>/ and the page /public/<code>/ alike): what the
public is told of a room, never a player's name, initials or phone (N.J.A.C. 13:69F-14.18, 14.19(b)-current-amount,
14.19(i)1, 14.19(k)2)."""
from rest_framework import serializers

from apps.badbeat.models import JackpotKind
from apps.core.validation import money_decimal

from .selectors import ACTIVE, PAYOUT_PENDING, PENDING_ADJUSTMENT


class PublicCasinoOutput(serializers.Serializer):
    code = serializers.CharField(help_text="The casino's code, as in the feed's URL.")
    name = serializers.CharField()


class PublicGameOutput(serializers.Serializer):
    """One game running, at its limits (or one mixed-game rotation): a line of the room's board. Its waitlist's
    length only — who waits is never published."""

    key = serializers.CharField(help_text="Stable identifier of the line (the game and its limits, or the rotation).")
    game = serializers.CharField(help_text="The game (14.8), or the rotation's name for a mixed game (14.17).")
    limits = serializers.CharField(help_text="The posted limits as on the table's sign, e.g. '$1/$2 no limit'.")
    rotation = serializers.CharField(allow_blank=True, help_text="The mixed-game rotation's games; empty otherwise.")
    tables = serializers.ListField(child=serializers.CharField(), help_text="Numbers of the open tables dealing it.")
    seats = serializers.IntegerField(help_text="Seats offered at those tables.")
    vacant_seats = serializers.IntegerField(help_text="Of those, seats vacant now (14.18).")
    waitlist_length = serializers.IntegerField(help_text="Players waiting for this game (how many, never who).")


class PublicJackpotOutput(serializers.Serializer):
    name = serializers.CharField(help_text="The bad beat payout's posted name.")
    kind = serializers.ChoiceField(choices=JackpotKind.choices, help_text="Primary, or a secondary payout (14.19(m)).")
    amount = money_decimal(help_text="Dollars and cents, as the room's displays show it (14.19(k)).")
    status = serializers.ChoiceField(
        choices=[(ACTIVE, "Active"), (PAYOUT_PENDING, "Payout pending"), (PENDING_ADJUSTMENT, "Pending adjustment")],
        help_text="payout_pending once a bad beat is verified and not yet paid (14.19(i)1); pending_adjustment once "
                  "it is paid, until accounting adjusts the displayed amount (14.19(i)1, (k)): `amount` is then the "
                  "amount displayed before the payout, not yet adjusted (never lowered before, 14.19(o)); else "
                  "active.")


class PublicFeedOutput(serializers.Serializer):
    """A room's official public feed (N.J.A.C. 13:69F-14.18)."""

    casino = PublicCasinoOutput()
    updated_at = serializers.DateTimeField(
        required=False, help_text="When the content below last changed (the casino's local time, ISO 8601).")
    tables_open = serializers.IntegerField(help_text="Open tables dealing a game of the feed.")
    vacant_seats = serializers.IntegerField(help_text="Vacant seats at those tables.")
    games = PublicGameOutput(many=True)
    jackpots = PublicJackpotOutput(many=True)
