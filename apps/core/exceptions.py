"""The one error type for a broken business rule."""
from django.db.models import Model


class DomainError(Exception):
    """A request that breaks a rule of the room or of N.J.A.C. 13:69F.

    message: a sentence for the user; field: the input field at fault, or None for the whole request.
    The API turns it into a 400 ({field: [message]}); pages into a form error.
    """

    status_code = 400

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class AlreadyRecorded(DomainError):
    """The record asked for exists already (the same external id, the same source hand, the same table number): the
    API answers 409 with the existing record's id ({field: [message], existing_id: id}); nothing is written."""

    status_code = 409

    def __init__(self, message: str, *, field: str | None = None, existing_id: int | None = None) -> None:
        super().__init__(message, field=field)
        self.existing_id = existing_id



def broken_constraint(exc: Exception) -> str:
    """What names the constraint an IntegrityError broke: its name (psycopg's diagnostics), else the error's message
    (an error that names no constraint). For telling a known duplicate (a 409, a rule's refusal) from any other integrity error."""
    return getattr(getattr(exc.__cause__, "diag", None), "constraint_name", None) or str(exc)


def unique_violation_on(exc: Exception, model: type[Model]) -> bool:
    """Whether the IntegrityError `exc` is a unique violation (SQLSTATE 23505) on `model`'s table (psycopg's
    diagnostics): e.g. a round of play whose source hand another request stored first."""
    cause = exc.__cause__
    diag = getattr(cause, "diag", None)
    return getattr(cause, "sqlstate", None) == "23505" and diag is not None and \
        diag.table_name == model._meta.db_table
