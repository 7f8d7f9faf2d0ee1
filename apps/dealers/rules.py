import rules

from apps.casinos.rules import is_admin, is_dealer, is_floorperson, is_supervisor, is_surveillance

rules.add_perm("dealers.view_rotation", is_supervisor | is_floorperson | is_dealer | is_surveillance | is_admin)
rules.add_perm("dealers.plan_rotation", is_supervisor | is_admin)
