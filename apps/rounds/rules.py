import rules

from apps.casinos.rules import (
    is_admin,
    is_dealer,
    is_floorperson,
    is_supervisor,
    readers,
    works_at_object_casino,
)

rules.add_perm("rounds.view_roundofplay", readers & works_at_object_casino)
# The hand feed: the dealer's tablet, the floor and the supervisor record rounds; surveillance only reads.
rules.add_perm("rounds.add_roundofplay", (is_supervisor | is_floorperson | is_dealer | is_admin) & works_at_object_casino)
