"""The history tab of a record: who changed what, when, from what to what, read from the pghistory event tables.

A model tracked with `@pghistory.track()` has an event table: a snapshot of the row at its insert and at each update
(pghistory's triggers), each stamped by the HistoryMiddleware with the
signed-in user and the URL (the event's `pgh_context.metadata`: {"user": pk, "url": path}). A history tab shows
the events of one or more tracked models at once (a claim and its payout; a table, its rotation and its rake), newest
first, in keyset pages, each event with:

- when (`pgh_created_at`, the start of the transaction that wrote it, aware), who (the signed-in user's name, or
  "the system" when no one was signed in: the engine at a showdown, a scheduled job, a command),
- which record (a Source names it: "Claim", "Payout", "Rule change #3"),
- what: the record's first event ("Opened", "Recorded"... as the Source calls it; "First recorded" when the record
  existed before it was tracked), or "Changed" with each column shown that changed, from what to what.

Values are shown as people read them: a choice by its label, a person by name, money (a DecimalField of two places)
as dollars and cents ("$1,234.50"), a moment in the current time zone, yes/no; a Source may give a column a way of
its own (`formats`). A change event that changed none of the columns shown is left out of its page.

The order is (pgh_created_at, source, pgh_id) descending; a page reads at most `page_size + 1` events of each source
in that order, each through the index of the filter its Source gives (the event's pgh_obj_id, or a copied foreign key
such as claim_id or casino_id: pghistory keeps their indexes), so a page costs the same whatever the record's age.
The event before each shown one (of the same record: the "from" side) is found by pgh_id, in one query per source.

Read-only: nothing here writes. Who may read a tab is the page's role policy (apps.core.policy); a page shows a
source only to those who may read its records.
"""
from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import BadRequest, FieldDoesNotExist
from django.db import models
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.formats import date_format

from .money import dollars
from .pagination import KeysetPage

#: The query parameter that shows a page's history tab (`?tab=history`), and the one of its pages.
TAB_PARAM, TAB = "tab", "history"
CURSOR_PARAM = "history"
PAGE_SIZE = 25
EMPTY = "—"


@dataclass(frozen=True)
class Change:
    """One column changed by an event: its label and its values before and after, as shown to people."""

    label: str
    before: str
    after: str


@dataclass(frozen=True)
class HistoryEntry:
    """One event of a history tab: when (aware), by whom, of which record, what kind ("Changed" or the record's first
    event), and the columns it set (first event: before is "") or changed."""

    at: datetime
    who: str
    record: str
    what: str
    changes: tuple[Change, ...]

    @property
    def is_change(self) -> bool:
        return self.what == "Changed"


@dataclass(frozen=True)
class Source:
    """One tracked model's events shown in a history tab.

    `events`: its event model's rows of the records shown, filtered through an index (e.g.
    `events_of(Claim).filter(pgh_obj_id=claim.pk)`), any select_related the labels need; `fields`: the
    columns shown, {name: label}, in order; `record`: the record's name as shown, or a function of the event giving
    it; `created`: what its first event is called; `formats`: {column: function of the value (never None or empty)
    giving the text shown}, for a column shown otherwise than by its field's kind."""

    events: QuerySet[Any]
    fields: Mapping[str, str]
    record: str | Callable[[Any], str]
    created: str = "Recorded"
    formats: Mapping[str, Callable[[Any], str]] = field(default_factory=dict)

    @property
    def tracked(self) -> type[models.Model]:
        tracked: type[models.Model] = self.events.model.pgh_tracked_model  # pghistory's event model: untyped
        return tracked

    def record_of(self, event: Any) -> str:
        return self.record(event) if callable(self.record) else self.record


def events_of(tracked: type[models.Model]) -> QuerySet[Any]:
    """Every event pghistory keeps of the tracked model `tracked` (the rows of the event model `@pghistory.track()`
    gives it as `pgh_event_model`), for a Source to filter."""
    event_model = tracked.pgh_event_model  # type: ignore[attr-defined]  # set on the model by @pghistory.track()
    events: QuerySet[Any] = event_model.objects.all()
    return events


def _is_money(model_field: object) -> bool:
    return isinstance(model_field, models.DecimalField) and model_field.decimal_places == 2 \
        and model_field.max_digits == 14


def person(users: Mapping[int, Any], pk: int | None) -> str:
    """A user as people read them: full name, else user name; "user #pk" for one no longer found."""
    if pk is None:
        return EMPTY
    user = users.get(pk)
    return (user.get_full_name() or user.username) if user else f"user #{pk}"


def _column(source: Source, name: str) -> tuple[models.Field[Any, Any] | None, str]:
    """The tracked model's field for column `name` and the attribute holding its value on an event (`x_id` for a
    foreign key)."""
    try:
        model_field = source.tracked._meta.get_field(name)
    except FieldDoesNotExist:  # a property of the event itself
        return None, name
    if not isinstance(model_field, models.Field):  # a relation from another model: no column of the event
        return None, name
    return model_field, model_field.attname


def _is_user(model_field: object) -> bool:
    return isinstance(model_field, models.ForeignKey) and model_field.related_model is get_user_model()


def shown(source: Source, name: str, value: Any, users: Mapping[int, Any]) -> str:
    """Column `name`'s `value` as people read it (see the module)."""
    model_field, _ = _column(source, name)
    if model_field is not None and _is_user(model_field):
        return person(users, value)
    if value is None or value == "" or value == [] or value == {}:
        return EMPTY
    if name in source.formats:
        return source.formats[name](value)
    if model_field is None:
        return str(value)
    if model_field.choices:
        return str(dict(model_field.flatchoices).get(value, value))
    if _is_money(model_field):
        return dollars(value)
    if isinstance(model_field, models.BooleanField):
        return "Yes" if value else "No"
    if isinstance(model_field, models.DateTimeField):  # the room's date format (settings.FORMAT_MODULE_PATH), seconds
        local = timezone.localtime(value)
        return f"{date_format(local)} {local:%H:%M:%S}"
    if isinstance(model_field, models.DateField) and isinstance(value, date):
        return date_format(value)
    if isinstance(model_field, models.ForeignKey):
        return f"#{value}"
    if isinstance(model_field, models.JSONField):
        return json.dumps(value, sort_keys=True, default=str)
    return str(value)


# --- the keyset over several event tables ---------------------------------------------------------------------------

@dataclass(frozen=True, order=True)
class _Key:
    """An event's place in the merged order: (pgh_created_at, source index, pgh_id); a page is newest first."""

    at: datetime
    source: int
    id: int

    def encode(self, direction: str) -> str:
        text = json.dumps([direction, self.at.isoformat(), self.source, self.id])
        return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")

    @classmethod
    def decode(cls, cursor: str) -> tuple[str, _Key]:
        """(direction "older" or "newer", position) of a cursor; BadRequest for one that is not ours."""
        try:
            direction, at, source, pk = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
            at = datetime.fromisoformat(at)
            if direction not in ("older", "newer") or at.tzinfo is None or not isinstance(source, int) \
                    or not isinstance(pk, int):
                raise ValueError
        except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
            raise BadRequest("That history page link is not valid any more: start from the first page.") from None
        return direction, cls(at, source, pk)


def _beyond(index: int, position: _Key, direction: str) -> Q:
    """The events of source `index` that come after `position` going `direction` in the merged order."""
    at = position.at
    if direction == "older":
        if index < position.source:
            return Q(pgh_created_at__lte=at)
        if index > position.source:
            return Q(pgh_created_at__lt=at)
        return Q(pgh_created_at__lt=at) | Q(pgh_created_at=at, pgh_id__lt=position.id)
    if index > position.source:
        return Q(pgh_created_at__gte=at)
    if index < position.source:
        return Q(pgh_created_at__gt=at)
    return Q(pgh_created_at__gt=at) | Q(pgh_created_at=at, pgh_id__gt=position.id)


def _url(request: HttpRequest, cursor: str) -> str:
    query = request.GET.copy()
    query[CURSOR_PARAM] = cursor
    return f"{request.path}?{query.urlencode()}"


def history_page(request: HttpRequest, sources: Sequence[Source], *, page_size: int = PAGE_SIZE) -> KeysetPage:
    """One page of the history of `sources`, newest first (see the module): a KeysetPage whose rows are
    HistoryEntry and whose links (`?history=`, the request's other parameters kept) go to the older and newer pages,
    for templates/includes/history_tab.html. Raises BadRequest (a 400 page) for a cursor that is not ours."""
    direction, position = "older", None
    if cursor := request.GET.get(CURSOR_PARAM):
        direction, position = _Key.decode(cursor)
    picked: list[tuple[_Key, Any]] = []
    for index, source in enumerate(sources):
        events = source.events.select_related("pgh_context")
        if position is not None:
            events = events.filter(_beyond(index, position, direction))
        ordering = ("-pgh_created_at", "-pgh_id") if direction == "older" else ("pgh_created_at", "pgh_id")
        picked += [(_Key(e.pgh_created_at, index, e.pgh_id), e) for e in events.order_by(*ordering)[:page_size + 1]]
    picked.sort(key=lambda pair: pair[0], reverse=direction == "older")
    more = len(picked) > page_size
    picked = picked[:page_size]
    if direction == "newer":
        picked.reverse()
    keys = [key for key, _ in picked]
    older = keys and (more if direction == "older" else True)
    newer = keys and (position is not None if direction == "older" else more)
    entries = _entries(sources, picked)
    return KeysetPage(rows=entries, next_url=_url(request, keys[-1].encode("older")) if older else None,
                      previous_url=_url(request, keys[0].encode("newer")) if newer else None)


def _previous(source: Source, events: list[Any]) -> dict[int, Any]:
    """pgh_id of each of `events` -> the event before it of the same record (or nothing for its first)."""
    if not events:
        return {}
    model = source.events.model
    before = model.objects.filter(pgh_obj_id=OuterRef("pgh_obj_id"), pgh_id__lt=OuterRef("pgh_id")).order_by("-pgh_id")
    pairs = dict(model.objects.filter(pgh_id__in=[e.pgh_id for e in events])
                 .annotate(before=Subquery(before.values("pgh_id")[:1])).values_list("pgh_id", "before"))
    earlier = model.objects.in_bulk([pk for pk in pairs.values() if pk is not None], field_name="pgh_id")
    return {pk: earlier[before] for pk, before in pairs.items() if before is not None}


def _values(source: Source, event: Any) -> dict[str, Any]:
    return {name: getattr(event, _column(source, name)[1]) for name in source.fields}


def _entries(sources: Sequence[Source], picked: list[tuple[_Key, Any]]) -> list[HistoryEntry]:
    by_source: dict[int, list[Any]] = {}
    for key, event in picked:
        by_source.setdefault(key.source, []).append(event)
    previous = {index: _previous(sources[index], events) for index, events in by_source.items()}
    people: set[int | None] = set()
    for key, event in picked:
        source = sources[key.source]
        people.add(_metadata(event).get("user"))
        for name in source.fields:
            model_field, attname = _column(source, name)
            if model_field is not None and _is_user(model_field):
                people.add(getattr(event, attname))
                if (before := previous[key.source].get(event.pgh_id)) is not None:
                    people.add(getattr(before, attname))
    users = get_user_model().objects.in_bulk([pk for pk in people if isinstance(pk, int)])
    entries: list[HistoryEntry] = []
    for key, event in picked:
        source = sources[key.source]
        values = _values(source, event)
        before = previous[key.source].get(event.pgh_id)
        if before is None:
            what = source.created if event.pgh_label == "insert" else "First recorded"
            changes = tuple(Change(label, "", shown(source, name, values[name], users))
                            for name, label in source.fields.items() if values[name] not in (None, "", [], {}))
        else:
            what, earlier = "Changed", _values(source, before)
            pairs = ((label, shown(source, name, earlier[name], users), shown(source, name, values[name], users))
                     for name, label in source.fields.items() if values[name] != earlier[name])
            changes = tuple(Change(label, old, new) for label, old, new in pairs if old != new)
            if not changes:
                continue
        entries.append(HistoryEntry(at=event.pgh_created_at, who=_who(event, users), record=source.record_of(event),
                                    what=what, changes=changes))
    return entries


def _metadata(event: Any) -> dict[str, Any]:
    context = event.pgh_context if event.pgh_context_id else None
    metadata: dict[str, Any] = (context.metadata or {}) if context is not None else {}
    return metadata


def _who(event: Any, users: Mapping[int, Any]) -> str:
    metadata = _metadata(event)
    if metadata.get("user") is not None:
        return person(users, metadata["user"])
    return f"the system, no one signed in ({metadata['url']})" if metadata.get("url") else "the system"


# --- the page's tabs --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Tabs:
    """A record page's two tabs for templates/includes/history_tab.html: the record (`record_url`, named
    `record_label`) and its history (`history_url`); `history` when the history tab is the one shown."""

    record_label: str
    record_url: str
    history_url: str
    history: bool


def is_history_tab(request: HttpRequest) -> bool:
    """Whether the request asks for a page's history tab (`?tab=history`, on a GET)."""
    return request.method in ("GET", "HEAD") and request.GET.get(TAB_PARAM) == TAB


def tabs(request: HttpRequest, record_label: str, *, keep: Sequence[str] = (), path: str | None = None) -> Tabs:
    """The tabs of the page `request` shows (at `path`, the request's own when None: a page answered from another URL,
    e.g. after a POST elsewhere, names its own): its record tab keeps the query parameters named in `keep` (e.g. the
    gaming day shown), its history tab adds `tab=history`."""
    path = path or request.path
    query = request.GET.copy()
    for name in list(query):
        if name not in keep:
            del query[name]
    record_url = f"{path}?{query.urlencode()}" if query else path
    query[TAB_PARAM] = TAB
    return Tabs(record_label=record_label, record_url=record_url, history_url=f"{path}?{query.urlencode()}",
                history=is_history_tab(request))


def history_response(request: HttpRequest, *, title: str, record_label: str, sources: Sequence[Source], what: str,
                     keep: Sequence[str] = (), status: int = 200) -> HttpResponse:
    """A page's history tab as a page of its own (templates/history.html): the page's title, its tabs (the record
    tab named `record_label`, keeping the query parameters in `keep`) and one page of the history of `sources`
    (`what` says whose, e.g. "the table, its rotation and its rake"). The caller has checked who may read it."""
    return render(request, "history.html", {
        "title": title, "tabs": tabs(request, record_label, keep=keep), "what": what,
        "history": history_page(request, sources)}, status=status)


def requested_record(request: HttpRequest, name: str) -> int | None:
    """The record id a history tab is narrowed to (`?{name}=ID`), None when absent; BadRequest for one that is not
    a whole number."""
    text = request.GET.get(name)
    if not text:
        return None
    if not text.isdigit() or len(text) > 18:
        raise BadRequest(f"{name}: give the number of a record.")
    return int(text)
