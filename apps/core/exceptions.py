"""The one error type for a broken business rule."""


class DomainError(Exception):
    """A request that breaks a rule of the room or of N.J.A.C. 13:69F.

    message: a sentence for the user; field: the input field at fault, or None for the whole request.
    The API turns it into a 400 ({field: [message]}); pages into a form error.
    """

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
