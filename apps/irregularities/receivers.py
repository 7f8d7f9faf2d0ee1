"""A round the feed reports as called dead is an irregularity of the shift (14.15(g))."""
from .models import IrregularityKind
from .services import log_irregularity


def log_dead_round(sender, *, round_of_play, extra, **kwargs) -> None:
    if round_of_play.is_dead:
        log_irregularity(table=round_of_play.table, kind=IrregularityKind.DEAD_ROUND,
                         description=f"Round called dead: {round_of_play.dead_reason}; "
                                     f"${round_of_play.refunded_amount:,.2f} returned to the players.",
                         at=min(round_of_play.started_at, round_of_play.created_at),
                         reported_by=round_of_play.recorded_by, round_of_play=round_of_play)
