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

rules.add_perm("decks.view_board", (is_supervisor | is_floorperson | is_dealer | is_security | is_surveillance
                                    | is_admin) & works_at_object_casino)
# Recording deck events; which role may record which event is checked by the service (14.2, 14.4, 14.6).
rules.add_perm("decks.record_event", (is_supervisor | is_floorperson | is_dealer | is_admin | is_security)
               & works_at_object_casino)
rules.add_perm("decks.manage_decks", (is_supervisor | is_floorperson | is_admin) & works_at_object_casino)
rules.add_perm("decks.distribute", (is_supervisor | is_admin) & works_at_object_casino)
