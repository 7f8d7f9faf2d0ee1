import rules

from apps.casinos.rules import (
                                is_accounting,
                                is_admin,
                                is_security,
                                is_supervisor,
                                is_surveillance,
                                money_readers,
                                readers,
                                works_at_object_casino,
)

# Every role reads a payout's posted rules and displayed amount, as patrons do (14.19(b)); its balance, payable amount,
# reset reserve and contributions are accounting's record (14.19(k), (p)), and the display adjustments too: not for
# dealers.
rules.add_perm("badbeat.view_jackpot", readers & works_at_object_casino)
rules.add_perm("badbeat.view_balance", money_readers & works_at_object_casino)
rules.add_perm("badbeat.view_display_adjustments", money_readers & works_at_object_casino)
rules.add_perm("badbeat.change_jackpot", (is_supervisor | is_admin) & works_at_object_casino)
# The contributions ledger is an accounting page (14.19(k): accounting keeps the official record).
rules.add_perm("badbeat.view_contribution_ledger",
               (is_accounting | is_supervisor | is_surveillance | is_security | is_admin) & works_at_object_casino)
rules.add_perm("badbeat.view_claim", readers & works_at_object_casino)
# 14.19(i): only a poker shift supervisor opens, verifies or rejects a claim; a dealer never does.
verifies_claims = is_supervisor & works_at_object_casino
rules.add_perm("badbeat.verify_claim", verifies_claims)
# 14.19(i)2, (j): security or accounting delivers the payout and records it.
records_payouts = (is_security | is_accounting) & works_at_object_casino
rules.add_perm("badbeat.record_payout", records_payouts)
# The claim page's form: verify or reject (a supervisor) or record the payout (security, accounting); the page
# checks the action's own permission.
rules.add_perm("badbeat.act_on_claim", verifies_claims | records_payouts)
# 14.19(k): accounting adjusts the displays (a supervisor is present; the service checks it).
rules.add_perm("badbeat.adjust_display", is_accounting & works_at_object_casino)
# 14.19(q), (l): rule changes and discontinuing are for supervisors and administrators.
rules.add_perm("badbeat.change_rules", (is_supervisor | is_admin) & works_at_object_casino)
rules.add_perm("badbeat.discontinue_jackpot", is_admin & works_at_object_casino)
