"""Reads about bad beat payouts: jackpots, their posted rules, the engine's verdict on a round, the ledger."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from django.db.models import Case, Count, Exists, F, OuterRef, Q, QuerySet, Subquery, Sum, Value, When
from django.db.models.functions import Coalesce

from apps import hands
from apps.casinos.models import Casino
from apps.core.exceptions import DomainError
from apps.core.money import CENT, ZERO, dollars, floor_to
from apps.core.writer import total_differences
from apps.rounds.models import RoundOfPlay, RoundSource

from .models import (
    BothQualifyRule,
    Claim,
    ClaimStatus,
    Contribution,
    DisplayAdjustment,
    DisplayStatus,
    Funding,
    GamingDayContributions,
    Jackpot,
    JackpotKind,
    JackpotStatus,
    MultipleLosersRule,
    Payout,
    PayoutNotification,
    QualifyingHand,
    RuleChange,
    RuleChangeStatus,
    TableDayContributions,
    Transfer,
)
from .qualifying import QualifyingRule, SeatCards, Shares, Verdict, judge, split_payout

#: Engine category of each posted qualifying hand (five-card high, N.J.A.C. 13:69F-14.3(b)).
QUALIFYING_CATEGORY = {
    QualifyingHand.FULL_HOUSE: hands.FiveCardCategory.FULL_HOUSE,
    QualifyingHand.FOUR_OF_A_KIND: hands.FiveCardCategory.FOUR_OF_A_KIND,
    QualifyingHand.STRAIGHT_FLUSH: hands.FiveCardCategory.STRAIGHT_FLUSH,
    QualifyingHand.ROYAL_FLUSH: hands.FiveCardCategory.ROYAL_FLUSH,
}


def qualifying_rule(*, jackpot: Jackpot, values: dict | None = None) -> QualifyingRule:
    """The jackpot's qualifying requirements as the engine reads them (14.19(b)3-applied); `values` overrides fields
    (a proposed rule change)."""
    def get(name):
        return (values or {}).get(name, getattr(jackpot, name))
    return QualifyingRule(category=QUALIFYING_CATEGORY[QualifyingHand(get("qualifying_hand"))],
                          minimum_rank=get("qualifying_minimum_rank"),
                          both_hole_cards_must_play=get("both_hole_cards_must_play"),
                          minimum_players_dealt=get("minimum_players_dealt"),
                          straddled_pots_qualify=get("straddled_pots_qualify"),
                          bomb_pots_qualify=get("bomb_pots_qualify"),
                          multiple_runs_qualify=get("multiple_runs_qualify"))


def qualifies_as_bad_beat(*, jackpot: Jackpot, losing: hands.HandValue) -> bool:
    """Whether a losing five-card high hand meets the jackpot's qualifying hand (14.19(b)3-applied); a quick test
    before the full judgement."""
    return qualifying_rule(jackpot=jackpot).hand_meets(losing)


def round_seats(*, round_of_play: RoundOfPlay) -> tuple[Sequence[hands.Card], list[SeatCards]]:
    """The board and each player dealt in, from the recorded round (cards as the dealer reported them)."""
    main = round_of_play.pots.filter(index=0).first()
    eligible = set(main.eligible_seats) if main else None
    seats = [SeatCards(seat=p.seat, name=p.name, hole=tuple(hands.parse_cards(p.hole_cards)) if p.hole_cards else (),
                       at_showdown=p.at_showdown, eligible_for_main_pot=eligible is None or p.seat in eligible,
                       folded=p.folded)
             for p in round_of_play.players.order_by("seat")]
    board = hands.parse_cards(round_of_play.board) if round_of_play.board else []
    return board, seats


def run_boards(*, round_of_play: RoundOfPlay) -> list[tuple[hands.Card, ...]]:
    """Each run's board of a hand run more than once, as recorded; [] for a hand run once."""
    return [hands.parse_cards(board) for board in round_of_play.run_boards]


def judge_round(*, jackpot: Jackpot, round_of_play: RoundOfPlay) -> Verdict:
    """The engine's verdict on a recorded round under the jackpot's rules (N.J.A.C. 13:69F-14.19(b)3-applied,
    14.19(i)): with the kind of pot the round was (straddled, a bomb pot, run more than once on its run boards) as
    the posted rules take it (qualifying.judge), and, for a round from another system's hand history (a PHH source),
    whether its showdown's cards were revealed (a player who did not fold without cards in the history: nothing to
    verify). Two queries: the main pot and the players."""
    board, seats = round_seats(round_of_play=round_of_play)
    return judge(qualifying_rule(jackpot=jackpot), round_of_play.game, board, seats,
                 boards=run_boards(round_of_play=round_of_play), straddled=round_of_play.straddles > 0,
                 bomb_pot=round_of_play.bomb_pot, from_another_system=round_of_play.source == RoundSource.PHH)


def primary_paid_instead(*, jackpot: Jackpot, round_of_play: RoundOfPlay,
                         qualifying: Mapping[int, Jackpot] | None = None) -> bool:
    """Whether a round that qualifies for `jackpot` is left to its primary payout: `jackpot` is a secondary payout
    whose posted rule pays only the primary when a round holds both qualifying hands, and the round qualifies for the
    primary too (N.J.A.C. 13:69F-14.19(m)2-both-qualify) — known from `qualifying` (the payouts the round qualifies
    for, by primary key) when given, else judged by the engine. Raises DomainError for a secondary naming no
    primary."""
    if not (jackpot.is_secondary and jackpot.when_both_qualify == BothQualifyRule.PRIMARY_ONLY):
        return False
    if qualifying is not None:
        return jackpot.primary_id in qualifying
    return judge_round(jackpot=primary_of(jackpot), round_of_play=round_of_play).qualifies


def primary_of(jackpot: Jackpot) -> Jackpot:
    """The primary payout a secondary one belongs to. Raises DomainError (field jackpot) when it names none."""
    if jackpot.primary is None:
        raise DomainError(f"The {jackpot.name} payout names no primary payout.", field="jackpot")
    return jackpot.primary


def jackpot_of(*, casino: Casino) -> Jackpot | None:
    """The casino's live primary jackpot, or None."""
    return (Jackpot.objects.filter(casino=casino, kind=JackpotKind.PRIMARY)
            .exclude(status=JackpotStatus.DISCONTINUED).first())


def live_jackpots(*, casino: Casino) -> QuerySet[Jackpot]:
    """Every jackpot of the casino still offered (primary first)."""
    return Jackpot.objects.filter(casino=casino).exclude(status=JackpotStatus.DISCONTINUED).order_by("kind", "pk")


def payable_amount(*, jackpot: Jackpot) -> Decimal:
    """What the jackpot would pay now (Decimal dollars): its balance, or for a secondary funded from the
    primary its posted percentage of the primary's balance, rounded down to the cent (14.19(m)2-deducted)."""
    if jackpot.funded_from_primary:
        primary, portion = jackpot.primary, jackpot.primary_portion_percentage
        if primary is None or portion is None:
            raise DomainError(f"The {jackpot.name} payout is funded from a primary payout it does not name.",
                              field="jackpot")
        return floor_to(primary.balance * portion / Decimal(100), CENT)
    return jackpot.balance


def amount_to_freeze(*, jackpot: Jackpot) -> Decimal:
    """What verifying a claim on `jackpot` now would freeze (Decimal dollars; 0 or less: nothing to pay): its payable
    amount less what verified claims on secondary payouts funded from it already hold, so that money promised to a
    pending secondary payout is not paid twice (N.J.A.C. 13:69F-14.19(m)2-deducted)."""
    promised = Claim.objects.filter(jackpot__primary=jackpot, jackpot__funding=Funding.PRIMARY_PORTION,
                                    status=ClaimStatus.VERIFIED).aggregate(t=Sum("payout_amount", default=ZERO))["t"]
    return payable_amount(jackpot=jackpot) - promised


def payout_shares(*, jackpot: Jackpot, amount: Decimal, verdict: Verdict) -> list[tuple[int, str, Decimal]]:
    """`amount` (Decimal dollars) split among the round's players as `jackpot` posts its shares (14.19(b)3-applied,
    14.19(n)): [(seat, ShareRole value, Decimal dollars)], as `split_payout` gives them."""
    return split_payout(amount, verdict, Shares(jackpot.losing_share, jackpot.winning_share, jackpot.table_share),
                        split_losing_share=jackpot.multiple_losers_rule == MultipleLosersRule.SPLIT_LOSING_SHARE)


def contributions_total(*, jackpot: Jackpot) -> Decimal:
    """Every contribution the jackpot has taken (Decimal dollars, 14.19(c)-per-pot): its running total, kept beside
    the records under the jackpot's row lock; `ledger` re-derives it."""
    return jackpot.contributions_total


@dataclass(frozen=True)
class Ledger:
    """A jackpot's balance and reset reserve re-derived from its append-only records (Decimal dollars)."""

    contributions: Decimal
    to_reset: Decimal
    payouts: Decimal
    transfers_out: Decimal
    transfers_in: Decimal
    reset_transfers_out: Decimal
    reset_transfers_in: Decimal
    resets: Decimal

    @property
    def balance(self) -> Decimal:
        """contributions − reset parts − payouts − transfers out + transfers in + reset seeds."""
        return (self.contributions - self.to_reset - self.payouts - self.transfers_out + self.transfers_in
                + self.resets)

    @property
    def reset_reserve(self) -> Decimal:
        return self.to_reset - self.resets - self.reset_transfers_out + self.reset_transfers_in


def ledger(*, jackpot: Jackpot) -> Ledger:
    """The records behind a jackpot's balance (N.J.A.C. 13:69F-14.19(k)-official-record, 14.19(l)-discontinue,
    14.19(p)-documented), summed over all of history: a check on the kept `balance`, `reset_reserve` and
    `contributions_total`, for the daily ledger check and tests, not for a request."""
    def total(qs, field="amount"):
        return qs.aggregate(total=Sum(field, default=ZERO))["total"]
    return Ledger(contributions=total(jackpot.contributions),
                  to_reset=total(jackpot.contributions, "to_reset"),
                  payouts=total(jackpot.payouts),
                  transfers_out=total(jackpot.transfers_out), transfers_in=total(jackpot.transfers_in),
                  reset_transfers_out=total(jackpot.transfers_out, "reset_amount"),
                  reset_transfers_in=total(jackpot.transfers_in, "reset_amount"),
                  resets=total(jackpot.reset_seeds))


def contributions_for_gaming_day(*, casino: Casino, gaming_day: date) -> QuerySet[Contribution]:
    """The casino's contributions of a gaming day, newest first (by id, the order they were taken)."""
    return (Contribution.objects.filter(jackpot__casino=casino, gaming_day=gaming_day)
            .select_related("table", "round_of_play", "jackpot").order_by("-id"))


def pending_claims(*, casino: Casino) -> QuerySet[Claim]:
    return (Claim.objects.filter(jackpot__casino=casino, status=ClaimStatus.PENDING)
            .select_related("round_of_play__table", "jackpot").order_by("opened_at"))


def claims_for_casino(*, casino: Casino) -> QuerySet[Claim]:
    return (Claim.objects.filter(jackpot__casino=casino)
            .select_related("round_of_play__table", "jackpot", "decided_by", "opened_by", "payout__delivered_by")
            .order_by("-id"))


def payouts_pending(*, casino: Casino) -> QuerySet[Claim]:
    """Verified claims whose payout has not been delivered yet (14.19(i)1)."""
    return claims_for_casino(casino=casino).filter(status=ClaimStatus.VERIFIED)


def open_notifications(*, casino: Casino) -> QuerySet[PayoutNotification]:
    return (PayoutNotification.objects.filter(casino=casino, acknowledged_at__isnull=True)
            .select_related("claim__round_of_play__table", "claim__jackpot"))


def posted_notices(*, casino: Casino) -> QuerySet[RuleChange]:
    """Rule changes whose notice is posted and which have not taken effect yet (14.19(q)-notice)."""
    return RuleChange.objects.filter(jackpot__casino=casino, status=RuleChangeStatus.SCHEDULED).select_related("jackpot")


def rule_history(*, casino: Casino) -> QuerySet[RuleChange]:
    return RuleChange.objects.filter(jackpot__casino=casino).select_related("jackpot", "proposed_by").order_by(
        "-notice_posted_at")


def last_display_adjustment(*, jackpot: Jackpot) -> DisplayAdjustment | None:
    return jackpot.display_adjustments.order_by("-created_at", "-pk").first()


def paid_since(*, jackpot: Jackpot, moment) -> bool:
    """Whether money left the jackpot by a payout or a transfer after `moment` (None: ever)."""
    payouts = Payout.objects.filter(debited=jackpot)
    transfers = jackpot.transfers_out.all()
    if moment is not None:
        payouts, transfers = payouts.filter(paid_at__gt=moment), transfers.filter(created_at__gt=moment)
    return payouts.exists() or transfers.exists()


def has_been_won_since_rules(*, jackpot: Jackpot) -> bool:
    """Whether the jackpot has been won since its qualifying requirements took effect, or has taken no
    contribution under them; only then may they be made harder (14.19(q)-harder-after-won)."""
    since = jackpot.rules_effective_at
    won = Payout.objects.filter(claim__jackpot=jackpot)
    taken = jackpot.contributions.all()
    if since is not None:
        won, taken = won.filter(paid_at__gt=since), taken.filter(created_at__gt=since)
    return won.exists() or not taken.exists()


#: Before any adjustment: every payment since counts (`with_display_state`).
_NEVER_ADJUSTED = datetime(1970, 1, 1, tzinfo=UTC)


def with_display_state(jackpots: QuerySet[Jackpot]) -> QuerySet[Jackpot]:
    """`jackpots` annotated with what `display_status` decides from, in the same query: `verified_claim` (a claim
    on the jackpot is verified and not yet paid, 14.19(i)1), `display_adjusted_at` (accounting's last adjustment of
    its display, 14.19(k)2; 1970 when never adjusted) and `paid_since_adjustment` (a Payout debited to, or a Transfer
    out of, the fund that pays it — its own, or the primary a secondary is funded from, 14.19(m)2-deducted — after that
    adjustment: the same test as `paid_since`, which lets `services.adjust_display` lower the display, 14.19(o))."""
    last = (DisplayAdjustment.objects.filter(jackpot=OuterRef("pk")).order_by("-created_at", "-pk")
            .values("created_at")[:1])
    source = Case(When(funding=Funding.PRIMARY_PORTION, primary__isnull=False, then=F("primary_id")), default=F("pk"))
    annotated = jackpots.annotate(
        display_source=source, display_adjusted_at=Coalesce(Subquery(last), Value(_NEVER_ADJUSTED)),
        verified_claim=Exists(Claim.objects.filter(jackpot=OuterRef("pk"), status=ClaimStatus.VERIFIED)))
    paid = Exists(Payout.objects.filter(debited=OuterRef("display_source"), paid_at__gt=OuterRef("display_adjusted_at")))
    moved = Exists(Transfer.objects.filter(source=OuterRef("display_source"),
                                           created_at__gt=OuterRef("display_adjusted_at")))
    return annotated.annotate(paid_since_adjustment=paid | moved)


def display_status(*, jackpot: Jackpot, verified_claim: bool, paid_since_adjustment: bool) -> DisplayStatus:
    """The one rule of what a jackpot's display says (the room's TV display, the floor map's jackpot tiles, the
    public feed, N.J.A.C. 13:69F-14.19(i)1, (o), 14.19(k)2):

    - PAYOUT_PENDING from a claim's verification until its payout is delivered (`verified_claim`, or the jackpot's
      own status): the poker shift supervisor's notice that the amount is pending adjustment (14.19(i)1);
    - PENDING_ADJUSTMENT once the money was paid (`paid_since_adjustment`: a payout or transfer left the fund that
      pays it since accounting last adjusted its display) until accounting adjusts the display to its record in a
      poker supervisor's presence (14.19(k)1, 2): the amount shown then still includes money paid, so the notice
      of (i)1 stays up;
    - ACTIVE otherwise."""
    if verified_claim or jackpot.status == JackpotStatus.PAYOUT_PENDING:
        return DisplayStatus.PAYOUT_PENDING
    if paid_since_adjustment:
        return DisplayStatus.PENDING_ADJUSTMENT
    return DisplayStatus.ACTIVE


@dataclass(frozen=True)
class JackpotDisplay:
    """A live jackpot as the room's displays show it: its amount and its status (`display_status`).

    The amount is always `Jackpot.displayed_amount`: the amount accounting set on the display at its last adjustment
    and verified against its record (DisplayAdjustment.displayed_amount, 14.19(k)2); for a secondary funded from the
    primary too, never a figure derived when read (the primary's balance times the posted percentage). While PENDING
    ADJUSTMENT it is the amount displayed before the payout, with the notice: 14.19(o) lets the display go down only
    once the amount was paid, and 14.19(k)1 has accounting set the new amount in a poker supervisor's presence, to
    its record (k)2; until then the last amount displayed stays, marked as pending adjustment (i)1, rather than a
    figure accounting has not verified. So the amount shown never goes down except by accounting's adjustment after
    a payout (`services.adjust_display` refuses any other)."""

    jackpot: Jackpot
    status: DisplayStatus

    @property
    def amount(self) -> Decimal:
        """Decimal dollars: what the display shows (14.19(k)2)."""
        return self.jackpot.displayed_amount

    @property
    def payout_pending(self) -> bool:
        return self.status == DisplayStatus.PAYOUT_PENDING

    @property
    def pending_adjustment(self) -> bool:
        return self.status == DisplayStatus.PENDING_ADJUSTMENT

    @property
    def notice(self) -> str:
        """The words the display shows beside the amount: "PAYOUT PENDING", "PENDING ADJUSTMENT" or ""."""
        return {DisplayStatus.PAYOUT_PENDING: "PAYOUT PENDING",
                DisplayStatus.PENDING_ADJUSTMENT: "PENDING ADJUSTMENT"}.get(self.status, "")


def jackpot_display(jackpot: Jackpot) -> JackpotDisplay:
    """`jackpot`, read through `with_display_state`, as its display shows it."""
    return JackpotDisplay(jackpot=jackpot, status=display_status(
        jackpot=jackpot, verified_claim=jackpot.verified_claim,  # type: ignore[attr-defined]  # with_display_state
        paid_since_adjustment=jackpot.paid_since_adjustment))  # type: ignore[attr-defined]


def jackpot_displays(*, casino: Casino) -> list[JackpotDisplay]:
    """The casino's live jackpots (`live_jackpots`, primary first, each with its primary) as the room's displays show
    them: the TV display, the floor map and the public feed read them here (14.19(i)1, (o), 14.19(k)2). One query."""
    return [jackpot_display(j) for j in with_display_state(live_jackpots(casino=casino).select_related("primary"))]


@dataclass(frozen=True)
class DisplayRow:
    jackpot: Jackpot
    displayed: Decimal
    payable: Decimal
    pending: Claim | None
    adjusted_today: bool
    notices: list[RuleChange]
    display: JackpotDisplay

    @property
    def agrees(self) -> bool:
        return self.displayed == self.payable


def display_rows(*, casino: Casino, gaming_day: date) -> list[DisplayRow]:
    """What the room's displays show: each live jackpot's displayed amount and status (`jackpot_displays`: payout
    pending, 14.19(i)1; pending adjustment, 14.19(k)2), its first verified claim, the amount accounting's record says
    (14.19(k)2), and the posted notices of rule changes (14.19(q)-notice)."""
    rows = []
    notices = list(posted_notices(casino=casino))
    for display in jackpot_displays(casino=casino):
        jackpot = display.jackpot
        pending = jackpot.claims.filter(status=ClaimStatus.VERIFIED).order_by("decided_at").first()
        adjusted = jackpot.display_adjustments.filter(gaming_day=gaming_day).exists()
        rows.append(DisplayRow(jackpot=jackpot, displayed=jackpot.displayed_amount,
                               payable=payable_amount(jackpot=jackpot), pending=pending, adjusted_today=adjusted,
                               notices=[n for n in notices if n.jackpot_id == jackpot.pk], display=display))
    return rows


#: The statuses of a claim a poker shift supervisor verified: its payout pending, or paid since.
VERIFIED_STATUSES = (ClaimStatus.VERIFIED, ClaimStatus.PAID)
#: The most verified bad beats a page lists at once as awaiting accounting's adjustment of a display.
ADJUSTMENTS_LISTED = 50


@dataclass(frozen=True)
class AdjustmentUponVerification:
    """A display accounting has not adjusted since a poker shift supervisor verified a bad beat
    (N.J.A.C. 13:69F-14.19(k)-upon-verification): `jackpot` is the payout whose display is to be adjusted — the
    claim's own, or for a secondary funded from a portion of the primary, the primary its payout is drawn from
    (services.locking.drawn_from) — and `claim` the verified bad beat, read with its jackpot, its round's table and
    the supervisor who verified it."""

    claim: Claim
    jackpot: Jackpot

    @property
    def verified_at(self) -> datetime:
        """When the supervisor verified the bad beat (aware): an adjustment of the display from then on answers
        it."""
        assert self.claim.decided_at is not None, f"Claim {self.claim.pk} is verified without a time."
        return self.claim.decided_at

    def figures(self) -> dict[str, int | str]:
        """The item as the day's close records it (JSON): {"claim": id, "jackpot": the display's payout name,
        "table": table number, "round": round of play id, "verified_at": ISO 8601 with its offset, "verified_by":
        username}."""
        decided_by = self.claim.decided_by
        return {"claim": self.claim.pk, "jackpot": self.jackpot.name, "table": self.claim.round_of_play.table.number,
                "round": self.claim.round_of_play_id, "verified_at": self.verified_at.isoformat(),
                "verified_by": decided_by.get_username() if decided_by else ""}


def displays_to_adjust_upon_verification(*, casino: Casino, since: datetime | None = None,
                                         until: datetime | None = None,
                                         limit: int | None = ADJUSTMENTS_LISTED) -> list[AdjustmentUponVerification]:
    """The displays accounting is still to adjust and verify upon a supervisor's verification of a bad beat
    (N.J.A.C. 13:69F-14.19(k)-upon-verification): for each claim of `casino` verified (payout pending, or paid since)
    from `since` (aware; default: the start of the previous gaming day: that day and the current one) until `until`
    (aware, excluded; default: none), the display of its jackpot and, for a secondary funded from a portion of the
    primary, the primary's — the display of the fund its payout is drawn from — each unless accounting adjusted
    that display at or after the verification. A display of a discontinued payout is not listed: it is no longer
    displayed. Newest verification first (the claim's jackpot's display, then the primary's); at most `limit`
    claims (None: every claim of the span — a gaming day's close). One query, on the indexes
    claim_jackpot_decided_newest and display_adjustment_newest: the span's claims only, never all of history.

    Any adjustment counts, whatever its reason: every DisplayAdjustment is the act the requirement asks for — made
    by accounting in a poker supervisor's presence, and written only when the display then shows accounting's
    record (services.adjust_display refuses any other) — so one made at or after the verification, be it labelled
    the day's adjustment or one after the payout, has adjusted and verified that display since. The reason is
    accounting's label of why, which the display adjustment page pre-sets to "after a verified bad beat" for these;
    a wrong label must not leave a display listed, nor the day's close out of order, when it was in fact adjusted
    and verified. An adjustment made before the verification never counts, whatever its reason."""
    if since is None:
        from apps.casinos.selectors import current_gaming_day, gaming_day_bounds

        since = gaming_day_bounds(casino=casino, gaming_day=current_gaming_day(casino=casino) - timedelta(days=1))[0]
    claims = Claim.objects.filter(jackpot__casino=casino, status__in=VERIFIED_STATUSES, decided_at__gte=since)
    if until is not None:
        claims = claims.filter(decided_at__lt=until)

    def adjusted_since_verified(display: str) -> Exists:
        return Exists(DisplayAdjustment.objects.filter(jackpot=OuterRef(display), created_at__gte=OuterRef("decided_at")))

    source = Case(When(jackpot__funding=Funding.PRIMARY_PORTION, jackpot__primary__isnull=False,
                       then=F("jackpot__primary_id")), default=F("jackpot_id"))
    claims = (claims.annotate(display_source=source)
              .annotate(own_adjusted=adjusted_since_verified("jackpot_id"),
                        source_adjusted=adjusted_since_verified("display_source"))
              .filter(Q(own_adjusted=False) | Q(source_adjusted=False))
              .select_related("jackpot__primary", "decided_by", "round_of_play__table")
              .order_by("-decided_at", "-pk"))
    items = []
    for claim in (claims if limit is None else claims[:limit]):
        displays = [(claim.jackpot, claim.own_adjusted)]
        if claim.display_source != claim.jackpot_id:
            assert claim.jackpot.primary is not None  # display_source is the primary's id only when it names one
            displays.append((claim.jackpot.primary, claim.source_adjusted))
        items += [AdjustmentUponVerification(claim=claim, jackpot=jackpot) for jackpot, adjusted in displays
                  if not adjusted and jackpot.status != JackpotStatus.DISCONTINUED]
    return items


def displays_not_adjusted_upon_verification(*, casino: Casino, gaming_day: date) -> list[AdjustmentUponVerification]:
    """The day's close finding of N.J.A.C. 13:69F-14.19(k)-upon-verification: each display of a bad beat a
    supervisor verified during `gaming_day` (the casino's wall-clock day) that accounting has not adjusted since the
    verification, newest first (`displays_to_adjust_upon_verification` over the day, every claim of it: the day's
    claims only). An adjustment after the day ended, before the close, still answers it."""
    from apps.casinos.selectors import gaming_day_bounds

    start, end = gaming_day_bounds(casino=casino, gaming_day=gaming_day)
    return displays_to_adjust_upon_verification(casino=casino, since=start, until=end, limit=None)


def jackpots_needing_reset_record(*, casino: Casino, gaming_day: date) -> QuerySet[Jackpot]:
    return Jackpot.objects.filter(casino=casino).filter(
        Q(contributions__gaming_day=gaming_day) | ~Q(status=JackpotStatus.DISCONTINUED)).distinct()


def day_totals_agree(*, jackpot: Jackpot) -> list[tuple[date, Decimal, Decimal]]:
    """Gaming days on which a jackpot's running total (GamingDayContributions) differs from the sum of its
    Contribution records: [(gaming day, kept, re-derived)], empty when every day agrees (14.19(k)-official-record,
    14.19(p)-documented)."""
    derived = {row["gaming_day"]: (row["amount"], row["to_reset"], row["count"]) for row in
               jackpot.contributions.values("gaming_day").annotate(amount=Sum("amount"), to_reset=Sum("to_reset"),
                                                                   count=Count("pk")).order_by()}
    kept = {t.gaming_day: (t.contributions, t.to_reset, t.count) for t in jackpot.day_totals.all()}
    return [(day, kept.get(day, (ZERO,))[0], derived.get(day, (ZERO,))[0])
            for day in sorted(set(derived) | set(kept)) if kept.get(day) != derived.get(day)]


def ledger_problems(*, jackpot: Jackpot) -> list[str]:
    """The jackpot's kept running totals against their re-derivation from the records (`ledger`, all of history):
    one sentence per total that differs, empty when the books agree to the cent (14.19(k)-official-record,
    14.19(p)-documented)."""
    derived = ledger(jackpot=jackpot)
    problems = [f"{jackpot.name}: {label} kept {dollars(kept)}, records say {dollars(value)}." for label, kept, value in (
        ("balance", jackpot.balance, derived.balance), ("reset reserve", jackpot.reset_reserve, derived.reset_reserve),
        ("contributions", jackpot.contributions_total, derived.contributions)) if kept != value]
    problems += [f"{jackpot.name}: contributions of {day:%Y-%m-%d} kept {dollars(kept)}, records say {dollars(value)}."
                 for day, kept, value in day_totals_agree(jackpot=jackpot)]
    return problems


def table_day_problems(*, casino: Casino, gaming_day: date) -> list[str]:
    """The contributions of each jackpot of the casino from each table on a gaming day, kept (TableDayContributions)
    against the Contribution records of the day: one sentence per difference, empty when they agree."""
    derived = {(r["jackpot_id"], r["table__number"]): (r["amount"], r["count"]) for r in (
        Contribution.objects.filter(jackpot__casino=casino, gaming_day=gaming_day)
        .values("jackpot_id", "table__number").annotate(amount=Sum("amount"), count=Count("pk")).order_by())}
    kept = {(t.jackpot_id, t.table.number): (t.amount, t.count) for t in TableDayContributions.objects.filter(
        jackpot__casino=casino, gaming_day=gaming_day).select_related("table")}
    return total_differences(kept, derived, lambda key, k, d: (
        f"Contributions of jackpot {key[0]} at table {key[1]} on {gaming_day:%Y-%m-%d}: kept {k}, records say {d}."))


def contributions_of_day(*, casino: Casino, gaming_day: date, table=None) -> tuple[Decimal, int]:
    """The contributions of every jackpot of the casino on a gaming day, at every table or at `table` (a PokerTable):
    (Decimal dollars, how many Contribution records), from the day's running totals (GamingDayContributions, or
    TableDayContributions for one table): one row per jackpot, whatever the day's rounds."""
    if table is not None:
        day = TableDayContributions.objects.filter(jackpot__casino=casino, table=table, gaming_day=gaming_day).aggregate(
            total=Sum("amount", default=ZERO), count=Sum("count", default=0))
    else:
        day = GamingDayContributions.objects.filter(jackpot__casino=casino, gaming_day=gaming_day).aggregate(
            total=Sum("contributions", default=ZERO), count=Sum("count", default=0))
    return day["total"], day["count"]


def contribution_days(*, casino: Casino):
    """Each jackpot's gaming days with contributions, newest first (GamingDayContributions, one row per jackpot and
    day): the ledger's history, paged by the caller."""
    return (GamingDayContributions.objects.filter(jackpot__casino=casino).select_related("jackpot")
            .order_by("-gaming_day", "jackpot_id"))


@dataclass(frozen=True)
class JackpotDay:
    """One gaming day of a fund that holds its own money, Decimal dollars: the contributions taken and the
    part of them set aside for the next payout (14.19(p)-documented), the payouts debited to it (14.19(j)), what else
    moved in or out (the reset reserve seeded after a payout, 14.19(p)-documented; transfers from or to a
    discontinued payout, 14.19(l)-discontinue), and its payout amount (`balance`) once the day's records are in."""

    gaming_day: date
    contributions: Decimal
    to_reset: Decimal
    payouts: Decimal
    moved: Decimal
    balance: Decimal


def jackpot_days(*, jackpot: Jackpot, start: date, end: date) -> list[JackpotDay]:
    """Each gaming day from `start` through `end` (inclusive, oldest first) of `jackpot` (not one funded from the
    primary: it holds no money of its own, 14.19(m)2-deducted), for the chart of its amount over time.

    The day's contributions come from its running total (GamingDayContributions, one row per day); payouts, reset
    seeds and transfers are the few records dated from `start` on. The amount at the end of each day is walked back
    from the kept balance (`jackpot.balance`, as read with `jackpot`): the balance less every change recorded after
    that day. Bounded by the span, never a sum over all of history; `ledger` is the same arithmetic from the first
    record. Five queries whatever the rounds."""
    from apps.casinos.selectors import gaming_day_bounds, gaming_day_of

    casino = jackpot.casino
    since = gaming_day_bounds(casino=casino, gaming_day=start)[0]
    changes: dict[date, list[Decimal]] = {}  # day -> [contributions, to_reset, payouts, moved]

    def add(day: date, slot: int, amount: Decimal) -> None:
        changes.setdefault(day, [ZERO, ZERO, ZERO, ZERO])[slot] += amount

    for day, amount, to_reset in (jackpot.day_totals.filter(gaming_day__gte=start)
                                  .values_list("gaming_day", "contributions", "to_reset")):
        add(day, 0, amount)
        add(day, 1, to_reset)
    for row in (Payout.objects.filter(debited=jackpot, gaming_day__gte=start).values("gaming_day")
                .annotate(total=Sum("amount")).order_by()):
        add(row["gaming_day"], 2, row["total"])
    for moved, sign in ((jackpot.reset_seeds.filter(created_at__gte=since), 1),
                        (jackpot.transfers_in.filter(created_at__gte=since), 1),
                        (jackpot.transfers_out.filter(created_at__gte=since), -1)):
        for created_at, amount in moved.values_list("created_at", "amount"):
            add(gaming_day_of(casino=casino, moment=created_at), 3, sign * amount)

    def net(figures: list[Decimal]) -> Decimal:
        contributions, to_reset, payouts, moved = figures
        return contributions - to_reset - payouts + moved

    after = sum((net(f) for day, f in changes.items() if day > end), ZERO)
    days, balance = [], jackpot.balance - after
    for offset in range((end - start).days, -1, -1):  # newest first, walking back
        day = start + timedelta(days=offset)
        figures = changes.get(day, [ZERO, ZERO, ZERO, ZERO])
        taken, reset, paid, other = figures
        days.append(JackpotDay(day, taken, reset, paid, other, balance))
        balance -= net(figures)
    return days[::-1]
