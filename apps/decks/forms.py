from django import forms

from .models import DeckEventKind


class DeckEventForm(forms.Form):
    kind = forms.ChoiceField(choices=[(k.value, k.label) for k in DeckEventKind
                                      if k not in (DeckEventKind.RECEIVED, DeckEventKind.ASSIGNED)])
    card_count = forms.IntegerField(required=False, min_value=0, max_value=60)
    note = forms.CharField(required=False, max_length=300)


class ReceiveDeckForm(forms.Form):
    serial = forms.CharField(max_length=40)
    back_colour = forms.CharField(max_length=30)
    back_design = forms.CharField(max_length=60, required=False)


class AssignDeckForm(forms.Form):
    deck = forms.IntegerField()
    table = forms.IntegerField()
