"""Serializer bases shared by the apps' APIs."""
from __future__ import annotations

from typing import Any, ClassVar

from rest_framework import serializers
from rest_framework.utils.serializer_helpers import BindingDict


class ModelOutput(serializers.ModelSerializer[Any]):
    """A ModelSerializer for output only, whose fields are built and bound once per class, not on every instance.

    DRF's ModelSerializer derives its fields from `Meta.model` and `Meta.fields` each time a serializer is made, and
    binds a deep copy of them to it (encode/django-rest-framework#2504, #7093): for a round of play with its players,
    pots and awards that was about a sixth of recording one round through POST /api/rounds/. Here the first use of
    a class builds and binds them, on an instance of the class kept for that, and every instance uses those: turning
    a record into its representation reads the fields and changes nothing in them.

    Only for output (`Serializer(instance).data`; the schema reads the same fields). A serializer whose fields read
    its context, its request or its instance (a SerializerMethodField, a hyperlink) must not use this base.
    """

    _bound_fields: ClassVar[BindingDict]  # set on each class at its first use

    @property
    def fields(self) -> BindingDict:
        cls = type(self)
        fields: BindingDict | None = cls.__dict__.get("_bound_fields")
        if fields is None:
            # DRF's own build and binding (the `fields` cached_property of Serializer, through its descriptor), on an
            # instance kept for that
            fields = serializers.Serializer.fields.__get__(cls(), cls)
            cls._bound_fields = fields
        return fields
