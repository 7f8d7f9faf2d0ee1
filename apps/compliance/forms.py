from django import forms

from .matrix import STATUS_LABELS


class MatrixSearchForm(forms.Form):
    """The matrix page's search (GET): `q`, a clause or requirement id ("14.19(b)3", "14.19(f)1-full", or the start
    of one, "14.19(b") or words of the clause, its requirements, reasons, code or tests; `status`, one clause status
    (proven, partly proven, not proven, no code needed) or all."""

    q = forms.CharField(label="Clause or words", max_length=100, required=False, strip=True,
                        help_text='A clause or requirement id such as 14.19(b)3 or 14.19(f)1-full (or the start, '
                                  '14.19), or words: "rake".')
    status = forms.ChoiceField(label="Status", required=False,
                               choices=[("", "Any status"), *STATUS_LABELS.items()])

    def clean_q(self) -> str:
        q = self.cleaned_data["q"]
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in q):
            raise forms.ValidationError("Write the search without control characters.")
        return q
