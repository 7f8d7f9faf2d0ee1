"""The deck event form of one deck's row (the rotation board, the dealer's home)."""
from typing import cast

from django import forms, template

from apps.core.templatetags.access import context_user, may_post
from apps.decks.forms import DeckEventForm
from apps.decks.models import DeckEventKind
from apps.decks.services import recordable_events

register = template.Library()


@register.inclusion_tag("decks/_event_form.html", takes_context=True)
def deck_event_form(context, deck, *, action: str, prefix: str, failed=None, counting_shuffler: str = ""):
    """The event form of `deck`, posting to `action`, with the id `<prefix><deck pk>` and its fields'
    `<prefix><deck pk>-<field>`; when `failed` is (deck pk, bound form) for this deck, that form as typed, with its
    errors beside its fields. Only for a user who may submit it (issue 34): who may POST to `action` (its role
    policy, `may_post`), offered the events that user may record of the deck as it stands (services.
    recordable_events); no form (`form` None) for a user who may record none (surveillance, security).
    `counting_shuffler`: the deck's table's counting shuffler approval (PokerTable.counting_shuffler_approval, read
    with the table by the page): when set, a count may be marked as the shuffler's (14.6(e)4-counting-shuffler)."""
    user = context_user(context)
    kinds = recordable_events(deck=deck, by=user) if user is not None and may_post(context, action) else []
    if not kinds:
        return {"deck": deck, "form": None}
    form_id = f"{prefix}{deck.pk}"
    if failed is not None and failed[0] == deck.pk:
        form = failed[1]
    else:
        form = DeckEventForm(auto_id=f"{form_id}-%s")
    cast(forms.ChoiceField, form.fields["kind"]).choices = [(kind.value, kind.label) for kind in kinds]
    return {"deck": deck, "action": action, "form_id": form_id, "form": form,
            "counting_shuffler": counting_shuffler if DeckEventKind.COUNTED in kinds else ""}
