"""python manage.py seed_demo — a demo poker room: casino, staff, tables, jackpot and a gaming day of rounds."""
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from apps.badbeat.models import BothQualifyRule, Funding, Jackpot, QualifyingHand
from apps.badbeat.selectors import live_jackpots, payable_amount
from apps.badbeat.services import adjust_display, create_secondary_jackpot, post_jackpot_rules
from apps.casinos.models import Casino, Department, LicenseType
from apps.casinos.selectors import current_gaming_day, gaming_day_bounds
from apps.casinos.services import create_staff_member, start_backfill
from apps.core.roles import Role
from apps.counts.models import CountMethod, CountReason, WitnessKind
from apps.counts.selectors import uncounted_total
from apps.counts.services import (
    close_backfilled_days,
    close_gaming_day,
    receive_form_part,
    reconcile_gaming_day,
    record_count,
)
from apps.dealers.selectors import downs_in_force
from apps.dealers.services import plan_rotation
from apps.decks.models import Deck
from apps.decks.services import assign_deck, receive_deck, record_deck_event, refresh_deck_alerts
from apps.feed.services import ImportSummary, PlayerIn, RoundIn, import_phh, record_round_of_play
from apps.feed.simulator import simulate_day
from apps.rake.services import post_rake_structure
from apps.rounds.models import RoundOfPlay, RoundSource
from apps.rounds.selectors import seats_seen
from apps.seats.models import Seat, Waitlist, WaitlistSource
from apps.seats.services import accept_round_seats, add_to_list, mark_away, seat_player, start_list
from apps.tables.models import BettingStructure, Game, PokerTable
from apps.tables.services import create_table, open_table

D = Decimal
DEMO_TABLES = [
    # number, game, structure, seats, sb, bb, min, max, location, bad beat, open
    (1, Game.HOLDEM, BettingStructure.NO_LIMIT, 10, D("1"), D("2"), D("2"), None, "Main floor", True, True),
    (2, Game.HOLDEM, BettingStructure.NO_LIMIT, 10, D("1"), D("2"), D("2"), None, "Main floor", True, True),
    (3, Game.HOLDEM, BettingStructure.NO_LIMIT, 9, D("2"), D("5"), D("5"), None, "Main floor", True, True),
    (4, Game.OMAHA_HILO8, BettingStructure.FIXED_LIMIT, 10, D("2"), D("4"), D("4"), D("8"), "Back room", False, False),
    (5, Game.STUD, BettingStructure.FIXED_LIMIT, 8, D("0"), D("0"), D("5"), D("10"), "Back room", False, False),
    (9, Game.HOLDEM, BettingStructure.NO_LIMIT, 6, D("50"), D("100"), D("100"), None, "High limit", True, True),
    # one table of each other game form of 14.8, 14.12A and 14.12B (closed until the room opens them)
    (10, Game.HOLDEM, BettingStructure.FIXED_LIMIT, 10, D("2"), D("4"), D("4"), D("8"), "Main floor", True, False),
    (11, Game.OMAHA, BettingStructure.POT_LIMIT, 9, D("1"), D("2"), D("2"), None, "Main floor", True, False),
    (12, Game.STUD_LOW, BettingStructure.FIXED_LIMIT, 8, D("0"), D("0"), D("5"), D("10"), "Back room", False, False),
    (13, Game.STUD_HILO, BettingStructure.FIXED_LIMIT, 8, D("0"), D("0"), D("5"), D("10"), "Back room", False, False),
    (14, Game.STUD_HILO8, BettingStructure.FIXED_LIMIT, 8, D("0"), D("0"), D("5"), D("10"), "Back room", False, False),
    (15, Game.FIVE_CARD_STUD, BettingStructure.FIXED_LIMIT, 8, D("0"), D("0"), D("5"), D("10"), "Back room", False,
     False),
    (16, Game.DRAW_HIGH, BettingStructure.FIXED_LIMIT, 8, D("1"), D("2"), D("2"), D("4"), "Back room", False, False),
    (17, Game.DRAW_LOW, BettingStructure.FIXED_LIMIT, 8, D("1"), D("2"), D("2"), D("4"), "Back room", False, False),
    (18, Game.TRIPLE_DRAW_27, BettingStructure.FIXED_LIMIT, 7, D("1"), D("2"), D("2"), D("4"), "Back room", False,
     False),
    (19, Game.BADUGI, BettingStructure.FIXED_LIMIT, 8, D("1"), D("2"), D("2"), D("4"), "Back room", False, False),
    (20, Game.MAMBO_STUD, BettingStructure.FIXED_LIMIT, 10, D("0"), D("0"), D("2"), D("4"), "Back room", False, False),
]
FIXED, NO_LIMIT, POT_LIMIT = BettingStructure.FIXED_LIMIT, BettingStructure.NO_LIMIT, BettingStructure.POT_LIMIT
#: Mixed-game tables: number, rotation name, seats, rounds of each game, games (14.8, 14.17)
DEMO_ROTATIONS = [
    (21, "H.O.R.S.E.", 8, 8, [
        {"game": Game.HOLDEM, "betting_structure": FIXED, "small_blind": D("10"), "big_blind": D("20"),
         "minimum_wager": D("20"), "maximum_wager": D("40"), "bad_beat_participation": True},
        {"game": Game.OMAHA_HILO8, "betting_structure": FIXED, "small_blind": D("10"), "big_blind": D("20"),
         "minimum_wager": D("20"), "maximum_wager": D("40")},
        {"game": Game.STUD_LOW, "betting_structure": FIXED, "ante": D("3"), "bring_in": D("5"),
         "minimum_wager": D("20"), "maximum_wager": D("40")},
        {"game": Game.STUD, "betting_structure": FIXED, "ante": D("3"), "bring_in": D("5"),
         "minimum_wager": D("20"), "maximum_wager": D("40")},
        {"game": Game.STUD_HILO8, "betting_structure": FIXED, "ante": D("3"), "bring_in": D("5"),
         "minimum_wager": D("20"), "maximum_wager": D("40")}]),
    (22, "Players Championship (nine games)", 6, None, [
        {"game": Game.HOLDEM, "betting_structure": NO_LIMIT, "small_blind": D("25"), "big_blind": D("50"),
         "minimum_wager": D("50"), "bad_beat_participation": True},
        {"game": Game.HOLDEM, "betting_structure": FIXED, "small_blind": D("25"), "big_blind": D("50"),
         "minimum_wager": D("50"), "maximum_wager": D("100"), "bad_beat_participation": True},
        {"game": Game.OMAHA, "betting_structure": POT_LIMIT, "small_blind": D("25"), "big_blind": D("50"),
         "minimum_wager": D("50")},
        {"game": Game.OMAHA_HILO8, "betting_structure": FIXED, "small_blind": D("25"), "big_blind": D("50"),
         "minimum_wager": D("50"), "maximum_wager": D("100")},
        {"game": Game.STUD, "betting_structure": FIXED, "ante": D("10"), "bring_in": D("15"),
         "minimum_wager": D("50"), "maximum_wager": D("100")},
        {"game": Game.STUD_HILO8, "betting_structure": FIXED, "ante": D("10"), "bring_in": D("15"),
         "minimum_wager": D("50"), "maximum_wager": D("100")},
        {"game": Game.STUD_LOW, "betting_structure": FIXED, "ante": D("10"), "bring_in": D("15"),
         "minimum_wager": D("50"), "maximum_wager": D("100")},
        {"game": Game.TRIPLE_DRAW_27, "betting_structure": FIXED, "small_blind": D("25"), "big_blind": D("50"),
         "minimum_wager": D("50"), "maximum_wager": D("100")},
        {"game": Game.SINGLE_DRAW_27, "betting_structure": NO_LIMIT, "small_blind": D("25"), "big_blind": D("50"),
         "minimum_wager": D("50")}]),
]
#: The demo's other dealers (username, first name; password "demo-" + username): with the demo login `dealer`, one for
#: each table open in DEMO_TABLES (4) and two more, so the rotation always has dealers on break (apps.dealers).
DEMO_DEALERS = [("dealer2", "Ana"), ("dealer3", "Ben"), ("dealer4", "Cleo"), ("dealer5", "Dev"), ("dealer6", "Eva")]
#: The demo's rotation: 30-minute downs, from four downs before now (its gaming day's shift under way) to 8 hours.
ROTATION_DOWN, ROTATION_DOWNS_BEFORE, ROTATION_HOURS = timedelta(minutes=30), 4, 8
PHH_DIR = Path(settings.BASE_DIR).parent / "shared" / "data" / "phh"
PLURIBUS = PHH_DIR / "pluribus"


class Command(BaseCommand):
    help = "Create a demo poker room (idempotent) and load a gaming day of rounds; prints the demo logins."

    def add_arguments(self, parser):
        parser.add_argument("--no-rounds", action="store_true", help="set up the room only")
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args, **options):
        casino, tables = self._room()
        if not options["no_rounds"] and not RoundOfPlay.objects.filter(table__casino=casino).exists():
            self._gaming_day(casino, tables, options["seed"])
        if not Deck.objects.filter(casino=casino).exists():
            self._decks(casino, tables)
        if not Waitlist.objects.filter(casino=casino).exists():
            self._seats(casino, tables)
        self._rotation(casino)
        self.stdout.write(self.style.SUCCESS(f"Demo room ready: {casino.name}."))
        self.stdout.write("Demo logins (username / password):")
        for role in Role:
            self.stdout.write(f"  {role.value:<24} demo-{role.value}")
        self.stdout.write(f"  and the other dealers: {', '.join(f'{u} / demo-{u}' for u, _ in DEMO_DEALERS)}")

    @transaction.atomic
    def _rotation(self, casino):
        """The dealer rotation of the shift under way, when none is in force now (so a second run changes nothing,
        and a run on a later day plans anew): every dealer of the casino over its open tables, 30-minute downs from
        four downs ago for 8 hours, as the supervisor plans it (apps.dealers.services.plan_rotation). The demo login
        `dealer` deals at the first open table now; the others deal at the rest or are on break. Needs more dealers
        than tables: with more open tables than that, the first ones by number are dealt."""
        from apps.casinos.models import User

        now = timezone.now()
        if downs_in_force(casino=casino, now=now):
            return
        dealers = list(User.objects.filter(casino=casino, groups__name=Role.DEALER.value, is_active=True)
                       .order_by("username"))
        tables = list(PokerTable.objects.filter(casino=casino, is_open=True).order_by("number"))[:max(len(dealers) - 1, 0)]
        if not tables:
            return
        length = int(ROTATION_DOWN.total_seconds())
        down_now = now - timedelta(seconds=int(now.timestamp()) % length, microseconds=now.microsecond)
        start = down_now - ROTATION_DOWNS_BEFORE * ROTATION_DOWN
        # the service sends dealer i to position (i + k) % count at the k-th down: the demo login to the first table now
        if demo := next((d for d in dealers if d.username == Role.DEALER.value), None):
            dealers.remove(demo)
            dealers.insert(-ROTATION_DOWNS_BEFORE % (len(dealers) + 1), demo)
        plan_rotation(casino=casino, dealers=dealers, tables=tables, start=start, hours=ROTATION_HOURS,
                      down_minutes=length // 60, planned_by=User.objects.get(username=Role.POKER_SHIFT_SUPERVISOR.value))
        self.stdout.write(f"Dealer rotation of the shift: {len(dealers)} dealers at tables "
                          f"{', '.join(str(t.number) for t in tables)}"
                          + (f"; dealer deals at table {tables[0].number} now." if demo else "."))

    @transaction.atomic
    def _seats(self, casino, tables):
        """A few seats kept by the floor at the first open table, one away, and a list of its game with three
        players (one by phone, not yet checked in), so the floorperson's board (/seats/) shows them. At the other open
        tables the floor has accepted the seats their last round reports (as a floorperson does with one click), so
        only the first table shows its record disagreeing with its rounds."""
        floor = casino.staff.get(username=Role.FLOORPERSON.value)
        open_tables = list(PokerTable.objects.filter(casino=casino, is_open=True).order_by("number"))
        if not open_tables:
            return
        first = open_tables[0]
        for number, player in ((1, "Ann Lee"), (2, "Bo K."), (5, "Cy Ortiz"), (7, "Dee")):
            if not Seat.objects.filter(table=first, number=number).exists():
                seat_player(table=first, number=number, player=player, by=floor)
        mark_away(seat=Seat.objects.get(table=first, number=7), by=floor)
        waitlist = start_list(table=first, by=floor)
        for name, source in (("Eve Park", WaitlistSource.IN_PERSON), ("FJ", WaitlistSource.KIOSK),
                             ("Gus Hale", WaitlistSource.PHONE)):
            add_to_list(waitlist=waitlist, name=name, source=source, by=floor)
        if len(open_tables) > 1:
            start_list(table=open_tables[1], by=floor)
        seen = seats_seen(table_ids=[t.pk for t in open_tables[1:]], now=timezone.now())
        for table in open_tables[1:]:
            if (report := seen.get(table.pk)) is not None and report.current:
                accept_round_seats(table=table, round_id=report.round_id, by=floor)
        self.stdout.write(f"Seats kept at table {first.number} and a waitlist of its game (Seats).")

    @transaction.atomic
    def _room(self):
        casino, _ = Casino.objects.get_or_create(code="boardwalk", defaults={
            "name": "Boardwalk Poker Room", "licensee": "Boardwalk Casino Hotel LLC",
            "address": "1 Boardwalk, Atlantic City, NJ 08401", "time_zone": "America/New_York"})
        departments = {Role.SECURITY: Department.SECURITY, Role.SURVEILLANCE: Department.SURVEILLANCE,
                       Role.ACCOUNTING: Department.ACCOUNTING, Role.ADMIN: Department.OTHER}
        for role in Role:
            create_staff_member(
                casino=casino, username=role.value, password=f"demo-{role.value}", roles=[role],
                first_name=role.label.split()[0], last_name="Demo", license_number=f"NJ-{role.value[:4].upper()}-001",
                department=departments.get(role, Department.POKER),
                license_type=LicenseType.CASINO_KEY_EMPLOYEE if role in (Role.SECURITY, Role.POKER_SHIFT_SUPERVISOR,
                                                                         Role.ACCOUNTING) else LicenseType.CASINO_EMPLOYEE,
                approved_count_witness=role == Role.SECURITY)
        for number, (username, first_name) in enumerate(DEMO_DEALERS, start=2):
            if not casino.staff.filter(username=username).exists():  # a password hash costs a second: only once
                create_staff_member(casino=casino, username=username, password=f"demo-{username}", roles=[Role.DEALER],
                                    first_name=first_name, last_name="Demo", license_number=f"NJ-DEAL-{number:03d}",
                                    department=Department.POKER, license_type=LicenseType.CASINO_EMPLOYEE)
        tables = {}
        for number, game, structure, seats, sb, bb, minimum, maximum, location, bad_beat, is_open in DEMO_TABLES:
            table = PokerTable.objects.filter(casino=casino, number=number).first() or create_table(
                casino=casino, number=number, game=game, seats=seats, minimum_wager=minimum, maximum_wager=maximum,
                betting_structure=structure, small_blind=sb, big_blind=bb, location=location,
                bad_beat_participation=bad_beat)
            post_rake_structure(table=table, percentage=D("10"), maximum=D("5") if bb < 50 else D("15"),
                                minimum_pot=D("10"), no_flop_no_drop=number == 9)  # high limit: no flop, no drop
            if is_open and not table.is_open:  # open already on a second run (opening an open table is refused)
                table = open_table(table=table)  # the row as opened: rounds are dealt at an open table
            tables[number] = table
        for number, name, seats, per_game, rotation in DEMO_ROTATIONS:
            table = PokerTable.objects.filter(casino=casino, number=number).first() or create_table(
                casino=casino, number=number, seats=seats, rotation_name=name, rounds_per_game=per_game,
                rotation=rotation, location="Mixed games", bad_beat_participation=True)
            post_rake_structure(table=table, percentage=D("10"), maximum=D("10"), minimum_pot=D("20"))
            tables[number] = table
        if not Jackpot.objects.filter(casino=casino).exists():
            primary = post_jackpot_rules(
                casino=casino, minimum_pot=D("20"), contribution_amount=D("1.00"), maximum_contribution=D("1.00"),
                qualifying_hand=QualifyingHand.FOUR_OF_A_KIND, minimum_players_dealt=4, both_hole_cards_must_play=True,
                reset_percentage=D("10"), other_bonus_awards="None: every contribution funds the bad beat payouts.")
            create_secondary_jackpot(primary=primary, name="Mini Bad Beat", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                     qualifying_minimum_rank=14, funding=Funding.PRIMARY_PORTION,
                                     primary_portion_percentage=D("10"), when_both_qualify=BothQualifyRule.PRIMARY_ONLY)
        return casino, tables

    @transaction.atomic
    def _decks(self, casino, tables):
        """Two decks at each open table, opened at different times so the rotation board has something to say."""
        from apps.casinos.models import User

        floor = User.objects.get(username=Role.FLOORPERSON.value)
        dealer = User.objects.get(username=Role.DEALER.value)
        now = timezone.now()
        opened_ago = {1: timedelta(hours=1), 2: timedelta(hours=2, minutes=50), 3: timedelta(hours=3, minutes=10),
                      9: timedelta(minutes=40)}
        for number, ago in opened_ago.items():
            at = now - ago
            red, blue = (assign_deck(deck=receive_deck(casino=casino, serial=f"{colour[0].upper()}-{number:02d}01",
                                                       back_colour=colour, by=floor, at=at - timedelta(minutes=5)),
                                     table=tables[number], by=floor, at=at - timedelta(minutes=4))
                         for colour in ("red", "blue"))
            record_deck_event(deck=red, kind="inspected", by=dealer, at=at - timedelta(minutes=3))
            record_deck_event(deck=red, kind="verified", by=floor, at=at - timedelta(minutes=2))
            record_deck_event(deck=red, kind="put_in_use", by=dealer, at=at)
            record_deck_event(deck=red, kind="counted", card_count=52, by=dealer,
                              at=now - (timedelta(minutes=20) if number == 9 else timedelta(minutes=5)))
        for n in range(1, 5):
            receive_deck(casino=casino, serial=f"G-{n:04d}", back_colour="green", by=floor)
        refresh_deck_alerts(casino=casino)
        self.stdout.write("Decks at the open tables; table 3 is overdue for suit and sequence, table 9 for a count.")

    def _yesterday(self, casino, tables, seed):
        """The gaming day before: rounds, a form per table at its close, the parts received by accounting (one
        original lost in the count room), the reconciliation and the day's close."""
        from apps.casinos.models import User

        today = current_gaming_day(casino=casino)
        start, end = gaming_day_bounds(casino=casino, gaming_day=today - timedelta(days=1))
        start = end - timedelta(hours=6)
        for table_id, round_in in simulate_day(seed=seed + 1, start=start, end=end - timedelta(minutes=20),
                                               rounds_per_hour=20, tables=[(t.pk, t.small_blind, t.big_blind)
                                                                           for n, t in tables.items() if n in (1, 2, 3)]):
            record_round_of_play(table=PokerTable.objects.get(pk=table_id), round_in=round_in)
        people = {r: User.objects.get(username=r.value) for r in Role}
        forms = []
        for number in (1, 2, 3):
            table = tables[number]
            owed = int(uncounted_total(table=table))
            forms.append(record_count(
                table=table, method=CountMethod.TABLE_INVENTORY, reason=CountReason.DAILY,
                chips={"5": owed // 5, "1": owed % 5}, counted_by=people[Role.DEALER],
                witness=people[Role.SECURITY], witness_kind=WitnessKind.SECOND_DEPARTMENT,
                recorded_by=people[Role.POKER_SHIFT_SUPERVISOR], counted_at=end - timedelta(minutes=10)))
        clerk = people[Role.ACCOUNTING]
        for form in forms:
            receive_form_part(casino=casino, serial_number=form.serial_number, part="duplicate", received_by=clerk)
            if form is not forms[1]:
                receive_form_part(casino=casino, serial_number=form.serial_number, part="original", received_by=clerk)
        reconcile_gaming_day(casino=casino, gaming_day=today - timedelta(days=1), reconciled_by=clerk)
        close_gaming_day(casino=casino, gaming_day=today - timedelta(days=1))
        self.stdout.write(f"Yesterday: {len(forms)} forms counted, reconciled (form {forms[1].serial_number} has "
                          "no original: its value went to poker revenue) and the day closed.")

    def _gaming_day(self, casino, tables, seed):
        self._yesterday(casino, tables, seed)
        start, _ = gaming_day_bounds(casino=casino, gaming_day=current_gaming_day(casino=casino))
        now = timezone.now()
        start = max(start, now - timedelta(hours=8))
        count = 0
        for table_id, round_in in simulate_day(seed=seed, start=start, end=now, rounds_per_hour=25, tables=[
                (t.pk, t.small_blind, t.big_blind) for n, t in tables.items() if n in (1, 2, 3)]):
            record_round_of_play(table=PokerTable.objects.get(pk=table_id), round_in=round_in)
            count += 1
        self.stdout.write(f"Dealt {count} simulated rounds on tables 1-3.")
        # A bad beat for the supervisor to look at: four nines lose to a straight flush.
        record_round_of_play(table=tables[3], round_in=RoundIn(
            started_at=now - timedelta(minutes=3), board="9h 9d 6s 7s 8s", source=RoundSource.SIMULATOR,
            source_name="scripted bad beat", players=[
                PlayerIn(seat=1, name="Ana", contributed=D("480.00"), hole_cards="9s 9c"),
                PlayerIn(seat=4, name="Dee", contributed=D("480.00"), hole_cards="5s 4s"),
                PlayerIn(seat=6, name="Fay", contributed=D("5.00"), hole_cards="Kd 2c", folded=True),
                PlayerIn(seat=8, name="Hal", contributed=D("5.00"), hole_cards="Qc Jd", folded=True)]))
        self.stdout.write("A bad beat waits for the supervisor's verification at table 3 (Bad beat claims).")
        if PLURIBUS.is_dir():
            files = sorted(PLURIBUS.glob("*.phhs"))[:2]
            imported = sum(import_phh(casino=casino, table=tables[9], text=f.read_text(), name=f.name).imported
                           for f in files)
            self.stdout.write(f"Imported {imported} real hands (Pluribus) at table 9.")
            # the famous hands were dealt in 2009 and 2019: historic records, which only an administrator's backfill
            # records (into their own past gaming days, each closed when the backfill ends)
            from apps.casinos.models import User

            backfill = start_backfill(casino=casino, run_by=User.objects.get(username=Role.ADMIN.value),
                                      source="seed_demo: the famous hands of ../shared/data/phh (PHH)")
            famous = ImportSummary()
            for path in sorted(PHH_DIR.glob("*.phh")):  # each to the table that deals its game; short-deck refused
                import_phh(casino=casino, text=path.read_text(), name=path.name, summary=famous, backfill=backfill,
                           recorded_by=backfill.run_by)
            closes = close_backfilled_days(backfill=backfill)
            self.stdout.write(f"Backfilled {famous.imported} famous hands (badugi, 2-7 triple draw, Omaha, hold 'em) "
                              f"at the tables dealing their games, {len(closes)} past gaming days closed; "
                              f"{famous.refused} refused (short-deck).")
        from apps.casinos.models import User

        clerk, boss = (User.objects.get(username=r.value) for r in (Role.ACCOUNTING, Role.POKER_SHIFT_SUPERVISOR))
        for jackpot in live_jackpots(casino=casino).select_related("primary"):
            adjust_display(jackpot=jackpot, displayed_amount=payable_amount(jackpot=jackpot), adjusted_by=clerk,
                           supervisor_present=boss)
