import rules

from apps.casinos.rules import (
                                is_accounting,
                                is_admin,
                                is_security,
                                is_supervisor,
                                is_surveillance,
                                readers,
                                works_at_object_casino,
)

rules.add_perm("badbeat.view_jackpot", readers & works_at_object_casino)
rules.add_perm("badbeat.change_jackpot", (is_supervisor | is_admin) & works_at_object_casino)
# The contributions ledger is an accounting page (14.19(k): accounting keeps the official record).
rules.add_perm("badbeat.view_contribution_ledger",
               (is_accounting | is_supervisor | is_surveillance | is_security | is_admin) & works_at_object_casino)
rules.add_perm("badbeat.view_claim", readers & works_at_object_casino)
# 14.19(i): only a poker shift supervisor opens, verifies or rejects a claim; a dealer never does.
rules.add_perm("badbeat.verify_claim", is_supervisor & works_at_object_casino)
# 14.19(i)2, (j): security or accounting delivers the payout and records it.
rules.add_perm("badbeat.record_payout", (is_security | is_accounting) & works_at_object_casino)
# 14.19(k): accounting adjusts the displays (a supervisor is present; the service checks it).
rules.add_perm("badbeat.adjust_display", is_accounting & works_at_object_casino)
# 14.19(q), (l): rule changes and discontinuing are for supervisors and administrators.
rules.add_perm("badbeat.change_rules", (is_supervisor | is_admin) & works_at_object_casino)
rules.add_perm("badbeat.discontinue_jackpot", is_admin & works_at_object_casino)
