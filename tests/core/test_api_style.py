"""The API's one style (issue 33, item 3; apps/core/apis.py, README "One style"), read from the URL configuration and
the schema: one view per URL, an APIView (a ListAPIView for a list), its serializers `Input` and `Output` nested in it
or module-level `*Input`/`*Output`, each named once in the schema; and money at one precision (MoneyField)."""
import inspect
import re
from decimal import Decimal

from django.apps import apps
from django.db import models
from django.urls import URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator
from rest_framework import generics, serializers
from rest_framework.views import APIView

from apps.core.fields import MONEY_DECIMAL_PLACES, MONEY_MAX_DIGITS, MoneyField
from apps.core.validation import money_decimal

# DRF's browsable root of /api/ (no record, not in the schema) and knox's sign-out views (APIViews of the library).
LIBRARY_VIEWS = {"ApiRootView", "TokenLogoutApi", "TokenLogoutAllApi"}


def api_views() -> dict[str, type]:
    """Route (as written) -> the view class of every URL pattern under /api/ (the schema and Swagger UI aside)."""

    def walk(resolver, prefix):
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                yield from walk(entry, prefix + str(entry.pattern))
            else:
                yield prefix + str(entry.pattern), entry.callback

    found = {}
    for route, callback in walk(get_resolver(), "/"):
        view_class = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
        if route.startswith("/api/") and view_class is not None and route not in ("/api/schema/", "/api/docs/"):
            found[route] = (callback, view_class)
    return found


def test_every_api_url_is_one_view_class_an_apiview_or_a_list():
    views = api_views()
    assert len(views) > 30
    for route, (callback, view_class) in views.items():
        assert issubclass(view_class, APIView), route
        assert not getattr(callback, "actions", None), f"{route}: a ViewSet"  # no routers, no actions
        assert not getattr(callback, "initkwargs", None) or view_class.__name__ in LIBRARY_VIEWS, \
            f"{route}: one class serves several URLs by its arguments"
        generic = [c for c in view_class.__mro__ if c.__module__.startswith("rest_framework.generics")]
        assert not generic or generics.ListAPIView in view_class.__mro__, f"{route}: {view_class.__name__} is {generic}"
        if generics.ListAPIView in view_class.__mro__:
            assert hasattr(view_class, "get"), route
    classes = [view_class for _, view_class in views.values()]
    assert len(classes) == len(set(classes)), "a view class routed at two URLs"


def test_no_api_view_subclasses_another_of_the_projects():
    """feed.RoundsApi once subclassed rounds.RoundListApi: a view's behaviour is read in one class."""
    ours = {view_class for _, view_class in api_views().values() if view_class.__module__.startswith("apps.")}
    for view_class in ours:
        parents = [c for c in view_class.__mro__[1:] if c in ours]
        assert parents == [], f"{view_class.__name__} subclasses {parents}"


def test_serializers_are_input_and_output():
    """Nested in the view: `Input` and `Output`; at module level, the pieces and shared answers: `*Input`, `*Output`.
    No `*Serializer`."""
    for _, view_class in api_views().values():
        module = inspect.getmodule(view_class)
        for name, value in vars(view_class).items():
            if isinstance(value, type) and issubclass(value, serializers.BaseSerializer):
                if name == "serializer_class":  # a list's: what it answers
                    assert value is view_class.Output, view_class.__name__
                    continue
                assert name in ("Input", "Output"), f"{view_class.__name__}.{name}"
                assert value.__name__.endswith(("Input", "Output")), f"{view_class.__name__}.{name} is {value}"
        for name, value in vars(module).items():
            if isinstance(value, type) and issubclass(value, serializers.BaseSerializer) and \
                    value.__module__ == module.__name__:
                assert re.fullmatch(r"\w+(Input|Output)", name), f"{module.__name__}.{name}"


def test_each_view_names_its_schema_components_once():
    """A nested `Input`/`Output` is named after its view (RoundsApi.Input -> RoundsInput): no two views' serializers
    share a component, and no component is a bare Input or Output."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    names = set(schema["components"]["schemas"])
    assert {"RoundsInput", "RoundBatchInput", "RoundBatchOutput", "TokenLoginInput", "TokenLoginOutput",
            "RoundOutput", "ClaimPayoutInput", "PokerTableOutput", "PaginatedRoundOutputList"} <= names
    assert not names & {"Input", "Output", "PatchedInput"}
    assert not [n for n in names if n.endswith("Serializer")]


# --- money at one precision -----------------------------------------------------------------------------------------

def test_money_field_is_a_decimal_field_at_the_money_precision_and_deconstructs_without_it():
    field = MoneyField(null=True)
    assert isinstance(field, models.DecimalField)
    assert (field.max_digits, field.decimal_places) == (MONEY_MAX_DIGITS, MONEY_DECIMAL_PLACES) == (14, 2)
    name, path, args, kwargs = field.deconstruct()
    assert (path, args, kwargs) == ("apps.core.fields.MoneyField", [], {"null": True})
    other = MoneyField(max_digits=20, decimal_places=4)
    assert other.deconstruct()[3] == {"max_digits": 20, "decimal_places": 4}
    assert MoneyField(*other.deconstruct()[2], **other.deconstruct()[3]).max_digits == 20


def test_every_column_at_the_money_precision_is_a_money_field():
    """The precision is written out in one place: a DecimalField of 14 digits and 2 places is a MoneyField."""
    written_out = [f"{model._meta.label}.{field.name}" for model in apps.get_models() for field in model._meta.fields
                   if isinstance(field, models.DecimalField) and not isinstance(field, MoneyField)
                   and (field.max_digits, field.decimal_places) == (MONEY_MAX_DIGITS, MONEY_DECIMAL_PLACES)]
    assert written_out == []
    money_columns = [f for m in apps.get_models() for f in m._meta.fields if isinstance(f, MoneyField)]
    assert len(money_columns) > 50


def test_an_amount_no_column_stores_is_read_at_the_money_precision():
    field = money_decimal(min_value=0)
    assert (field.max_digits, field.decimal_places) == (14, 2)
    assert field.run_validation("999999999999.99") == Decimal("999999999999.99")
    for refused in ("1000000000000.00", "0.001", "-0.01"):
        try:
            field.run_validation(refused)
        except serializers.ValidationError:
            continue
        raise AssertionError(f"{refused} taken")
