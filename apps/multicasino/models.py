"""The multi-casino bad beat system (N.J.A.C. 13:69F-14.20): the system agreement as data, the participating
casinos, the signed links between deployments, and the outbox and inbox of messages that keep them in step.

Each deployment holds one BadBeatSystem row for each system it belongs to; `Site.is_self` marks the row of this
deployment's own casino, `Site.is_host` the host's. Messages and acknowledgements are kept: they are the
system's audit record (14.20(e)).
"""
from decimal import Decimal

import pghistory
from django.db import models

from apps.badbeat.models import Jackpot

money = dict(max_digits=14, decimal_places=2)


class TwoClaimsRule(models.TextChoices):
    """Two qualifying claims for the same payout at different casinos (14.20(c)1, (e)4)."""

    FIRST_RECEIVED = "first_received", "The first claim received by the host is paid; the other is answered"
    SPLIT = "split", "Claims received before the payout is confirmed share the payout equally"


class SystemStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    SUSPENDED = "suspended", "Suspended"


@pghistory.track()
class BadBeatSystem(models.Model):
    """A bad beat system agreement (14.20(a)-(c)): one rule set for every participating casino, checked by its
    hash; the host casino keeps the official pool and the records."""

    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=120)
    host_name = models.CharField(max_length=200)
    host_address = models.CharField(max_length=300)
    rules = models.JSONField(help_text="The one rule set of the system (qualifying hand, contribution, minimum "
                                       "pot, maximum contribution, reset percentage, two-claims rule, ...).")
    rules_hash = models.CharField(max_length=64, editable=False)
    two_claims_rule = models.CharField(max_length=16, choices=TwoClaimsRule.choices,
                                       default=TwoClaimsRule.FIRST_RECEIVED)
    contributions_while_suspended = models.BooleanField(default=False)
    funds_and_fees = models.TextField(blank=True, help_text="How funds and fees are kept and paid (14.20(c)2).")
    records_kept_by = models.CharField(max_length=200, blank=True, help_text="14.20(c)3.")
    pool = models.DecimalField(**money, default=Decimal("0.00"),
                               help_text="At the host: the official multi-casino amount. At a site: as last reported.")
    heartbeat_seconds = models.PositiveSmallIntegerField(default=2)
    silence_seconds = models.PositiveSmallIntegerField(default=10, help_text="Silence that suspends (14.20(e)4.i).")
    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                                help_text="This deployment's local payout whose contributions belong to the system.")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.name


@pghistory.track()
class Site(models.Model):
    """A participating casino of a system, as seen from this deployment (14.20(d)1)."""

    system = models.ForeignKey(BadBeatSystem, on_delete=models.PROTECT, related_name="sites")
    code = models.SlugField(max_length=40)
    name = models.CharField(max_length=200)
    address = models.CharField(max_length=300, blank=True)
    is_host = models.BooleanField(default=False)
    is_self = models.BooleanField(default=False, help_text="This deployment's own casino.")
    inbox_url = models.URLField(blank=True, help_text="Its deployment's inbox (HTTPS).")
    status = models.CharField(max_length=10, choices=SystemStatus.choices, default=SystemStatus.ACTIVE)
    status_reason = models.CharField(max_length=300, blank=True)
    status_changed_at = models.DateTimeField(null=True, blank=True)
    last_heard_at = models.DateTimeField(null=True, blank=True)
    reported_rules_hash = models.CharField(max_length=64, blank=True)
    reported_total = models.DecimalField(**money, null=True, blank=True,
                                         help_text="The site's running total of contributions, as it reported it.")

    class Meta:
        ordering = ["system", "-is_host", "code"]
        constraints = [models.UniqueConstraint(fields=["system", "code"], name="one_site_code_per_system")]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


@pghistory.track(pghistory.InsertEvent(), pghistory.UpdateEvent())
class Link(models.Model):
    """This deployment's link with one other site: the secrets of each direction (the first signs; all are
    accepted, for rotation without downtime) and the sequence numbers of each direction (14.20(e)2, 3)."""

    peer = models.OneToOneField(Site, on_delete=models.PROTECT, related_name="link")
    outbound_secrets = models.JSONField(default=list, help_text="whsec_... secrets; the first signs.")
    inbound_secrets = models.JSONField(default=list, help_text="Every secret accepted from the peer.")
    next_out_sequence = models.PositiveBigIntegerField(default=1)
    next_in_sequence = models.PositiveBigIntegerField(default=1, help_text="The next sequence number to apply.")

    def __str__(self) -> str:
        return f"Link with {self.peer}"


class MessageKind(models.TextChoices):
    CONTRIBUTION = "contribution", "Contribution"
    HEARTBEAT = "heartbeat", "Heartbeat"
    RESEND = "resend", "Resend request"


class OutboxMessage(models.Model):
    """A message to a peer, written in the same transaction as the change it reports and sent on commit; the
    sweeper sends again whatever was not acknowledged, with backoff (14.20(e)2)."""

    link = models.ForeignKey(Link, on_delete=models.PROTECT, related_name="outbox")
    sequence = models.PositiveBigIntegerField()
    message_id = models.CharField(max_length=64, unique=True)
    kind = models.CharField(max_length=16, choices=MessageKind.choices)
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    acked_at = models.DateTimeField(null=True, blank=True)
    ack_body_hash = models.CharField(max_length=64, blank=True,
                                     help_text="The receiver's SHA-256 of the body it received (14.20(e)3).")

    class Meta:
        ordering = ["link", "sequence"]
        constraints = [models.UniqueConstraint(fields=["link", "sequence"], name="one_message_per_sequence")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.sequence} to {self.link.peer.code}"


class InboxMessage(models.Model):
    """A message received from a peer: stored once (unique sender and id), applied once, in sequence order."""

    link = models.ForeignKey(Link, on_delete=models.PROTECT, related_name="inbox")
    message_id = models.CharField(max_length=64)
    sequence = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=16, choices=MessageKind.choices)
    body = models.JSONField()
    body_hash = models.CharField(max_length=64)
    received_at = models.DateTimeField(auto_now_add=True)
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["link", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["link", "message_id"], name="inbox_once_per_id"),
            models.UniqueConstraint(fields=["link", "sequence"], name="inbox_once_per_sequence"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.sequence} from {self.link.peer.code}"


class RejectedMessage(models.Model):
    """A message refused at the inbox, and why; it changed nothing (14.20(e)3)."""

    sender = models.CharField(max_length=40, blank=True)
    message_id = models.CharField(max_length=64, blank=True)
    reason = models.CharField(max_length=300)
    body_hash = models.CharField(max_length=64)
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-received_at"]

    def __str__(self) -> str:
        return f"Rejected {self.message_id or '?'} from {self.sender or '?'}: {self.reason}"


class PoolEntry(models.Model):
    """At the host: one site's contribution applied to the system pool, once (unique site and reference),
    kept separately identifiable by casino (14.20(e)3)."""

    system = models.ForeignKey(BadBeatSystem, on_delete=models.PROTECT, related_name="pool_entries")
    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="pool_entries")
    reference = models.CharField(max_length=64, help_text="The site's contribution id.")
    gaming_day = models.DateField()
    amount = models.DecimalField(**money)
    applied_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-applied_at"]
        constraints = [models.UniqueConstraint(fields=["site", "reference"], name="pool_entry_once")]

    def __str__(self) -> str:
        return f"${self.amount} from {self.site.code}"
