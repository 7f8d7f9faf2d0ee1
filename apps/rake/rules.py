import rules

from apps.casinos.rules import (
                                is_accounting,
                                is_admin,
                                is_dealer,
                                is_floorperson,
                                is_supervisor,
                                is_surveillance,
                                money_readers,
                                readers,
                                works_at_object_casino,
)

# Rake records and time charges are the room's revenue (14.14): not for dealers, as the revenue pages.
rules.add_perm("rake.view_rakerecord", money_readers & works_at_object_casino)
# The rake structure is posted at the table for everyone to read (14.14(c)).
rules.add_perm("rake.view_rakestructure", readers & works_at_object_casino)
rules.add_perm("rake.change_rakestructure", (is_supervisor | is_admin) & works_at_object_casino)
# Revenue: the supervisor runs the shift, accounting reconciles it, surveillance reads; a dealer does not.
rules.add_perm("rake.view_revenue", is_supervisor | is_accounting | is_surveillance | is_admin)
# Time charges: the dealer collects, a floorperson or supervisor verifies (14.14(b)3.iv-v).
rules.add_perm("rake.collect_time_charge",
               (is_dealer | is_floorperson | is_supervisor | is_admin) & works_at_object_casino)
rules.add_perm("rake.verify_time_charge", (is_floorperson | is_supervisor | is_admin) & works_at_object_casino)
