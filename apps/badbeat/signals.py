"""Signals of the bad beat app, sent inside the transaction of the change they report."""
from django.dispatch import Signal

#: Sent for each Contribution written (kwargs: contribution), in its transaction, so that a receiver can record
#: an outbox message atomically with it (the multi-casino system, 14.20(e)2).
contribution_recorded = Signal()
