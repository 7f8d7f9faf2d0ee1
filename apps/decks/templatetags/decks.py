"""The deck event form of one deck's row (the rotation board, the dealer's home)."""
from django import template

from apps.decks.forms import DeckEventForm

register = template.Library()


@register.inclusion_tag("decks/_event_form.html")
def deck_event_form(deck, *, action: str, prefix: str, failed=None):
    """The event form of `deck`, posting to `action`, with the id `<prefix><deck pk>` and its fields'
    `<prefix><deck pk>-<field>`; when `failed` is (deck pk, bound form) for this deck, that form as typed, with its
    errors beside its fields."""
    form_id = f"{prefix}{deck.pk}"
    if failed is not None and failed[0] == deck.pk:
        form = failed[1]
    else:
        form = DeckEventForm(auto_id=f"{form_id}-%s")
    return {"deck": deck, "action": action, "form_id": form_id, "form": form}
