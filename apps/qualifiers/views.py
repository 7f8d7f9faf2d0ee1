"""The qualifier designer's page (/qualifiers/): up to four candidate qualifying rules side by side, their odds by
the engine, the room's days to a hit and the jackpot at the hit (apps.qualifiers.designer). A GET
form: it writes nothing, and a comparison's address can be shared and run again (the seed reproduces it)."""
from django.shortcuts import render

from apps.badbeat.selectors import qualifying_rule
from apps.core.exceptions import DomainError
from apps.core.policy import role_policy

from .charts import days_to_hit_charts
from .designer import MAX_CANDIDATES, SPANS, compare, designable_jackpots, losing_text
from .forms import CANDIDATE_FIELDS, DesignForm, field_name


def _form_field(field: str | None, numbered: list) -> str | None:
    """The form field a designer error names: `candidates[i].losing` is column numbered[i]'s `losing`."""
    if field and field.startswith("candidates[") and "]." in field:
        index, name = field[len("candidates["):].split("].", 1)
        return field_name(numbered[int(index)][0], name)
    return None if field == "candidates" else field


def _initial(jackpot) -> dict:
    """The form as it opens: candidate 1 is the jackpot's posted qualifying hand."""
    if jackpot is None:
        return {}
    rule = qualifying_rule(jackpot=jackpot)
    return {"jackpot": jackpot, field_name(1, "losing"): losing_text(rule.category, rule.minimum_rank),
            field_name(1, "both_hole_cards"): rule.both_hole_cards_must_play,
            field_name(1, "minimum_players_dealt"): rule.minimum_players_dealt}


@role_policy(read="qualifiers.design_qualifiers")
def designer(request):
    """The designer: the form (candidate 1 the posted rule), and once run (?deals=...) the comparison — each
    candidate's probability per round of play with its 95 % confidence interval, deals and hits, rounds and gaming
    days between hits, the chance of a hit within 30, 90 and 365 days, the jackpot at the hit — with the charts of
    days to a hit. Bad input: 400, the errors beside their fields, nothing run."""
    casino = request.user.casino
    jackpots = designable_jackpots(casino=casino)
    submitted = "deals" in request.GET
    form = DesignForm(request.GET if submitted else None, jackpots=jackpots, initial=_initial(jackpots.first()))
    comparison, numbered = None, []
    if submitted and form.is_valid():
        numbered = form.candidates()
        if not numbered:
            form.add_error(field_name(1, "losing"), "Write the weakest losing hand of at least one candidate.")
        else:
            try:
                comparison = compare(casino=casino, candidates=[c for _, c in numbered],
                                     jackpot=form.cleaned_data["jackpot"], deals=form.cleaned_data["deals"],
                                     seed=form.cleaned_data["seed"], players=form.cleaned_data["players"])
            except DomainError as exc:
                form.add_error(_form_field(exc.field, numbered), exc.message)
    results = list(zip([n for n, _ in numbered], comparison.results, strict=True)) if comparison else []
    return render(request, "qualifiers/designer.html", {
        "form": form, "columns": list(zip(range(1, MAX_CANDIDATES + 1), form.columns(), strict=True)),
        "candidate_fields": CANDIDATE_FIELDS, "comparison": comparison, "results": results,
        "chance_rows": [(span, [f.chance_within[span] for _, f in results]) for span in SPANS],
        "charts": days_to_hit_charts(results)}, status=400 if form.errors else 200)
