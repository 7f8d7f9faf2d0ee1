"""Writes of the multi-casino bad beat system (N.J.A.C. 13:69F-14.20), one module per concern; import from the
module that owns a function:

- `setup`: the agreement, its one rule set and that set's hash; the participating casinos and their links.
- `outbox`: messages written with the change they report, sent on commit in sequence order, swept with backoff.
- `inbox`: verified, stored once, applied once and in order, gaps asked for again; returns an `InboxResult`.
- `contributions`: this casino's contributions reported to the host; the host's pool entries.
- `heartbeats`: heartbeats both ways, suspension and resumption (the status of every link).
- `claims`: claims sent to and decided by the host, its notices to every casino, payouts and their delivery.
- `rules`: rule changes proposed at the host, approved by every casino, put in effect.
- `common`: this deployment's sites in a system, the system a payout funds, a person's name on the records.

Imports among them: common and setup need none of the others; outbox needs common; contributions, outbox;
heartbeats, contributions and outbox; claims, heartbeats and outbox; rules, setup and outbox; inbox needs them all,
to apply what arrives. One circle closes outside the package, through the Celery tasks: outbox's `send_later` queues
`apps.multicasino.tasks.send_message` (imported inside the function, which runs when a transaction commits), and the
tasks call outbox, heartbeats and rules. The transport is the one behaviour named by a setting
(settings.MULTICASINO_TRANSPORT, a dotted path, HTTPS by default; the tests put a fake peer in its place).
"""
