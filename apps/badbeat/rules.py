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
