import rules

from apps.casinos.rules import (
                                is_admin,
                                is_dealer,
                                is_floorperson,
                                is_security,
                                is_supervisor,
                                is_surveillance,
                                works_at_object_casino,
)

rules.add_perm("irregularities.view_irregularity",
               (is_supervisor | is_floorperson | is_dealer | is_security | is_surveillance | is_admin)
               & works_at_object_casino)
rules.add_perm("irregularities.add_irregularity",
               (is_supervisor | is_floorperson | is_dealer | is_admin) & works_at_object_casino)
# Seeing to an irregularity reported at a table (services.resolve_irregularity): the floor.
rules.add_perm("irregularities.resolve_irregularity", (is_supervisor | is_floorperson) & works_at_object_casino)
