import rules

from apps.casinos.rules import is_admin, is_dealer, is_floorperson, is_supervisor, is_surveillance

rules.add_perm("dealers.view_rotation", is_supervisor | is_floorperson | is_dealer | is_surveillance | is_admin)
rules.add_perm("dealers.plan_rotation", is_supervisor | is_admin)
# A dealer's own page (apps.dealers.home): the table the dealer deals at now, its decks, an irregularity to report.
rules.add_perm("dealers.view_own_table", is_dealer)
# From that page, an event of a deck at the table the dealer deals now (14.2, 14.6(e)4; the decks service says which
# events a dealer may record).
rules.add_perm("dealers.record_own_deck_event", is_dealer)
