import rules

from apps.casinos.rules import (
               is_accounting,
               is_admin,
               is_floorperson,
               is_security,
               is_supervisor,
               is_surveillance,
)

# The floor dashboard: supervisors and the people who watch or account for the floor. Dealers record rounds
# but have no business reading the room's revenue.
rules.add_perm("floor.view_dashboard",
               is_supervisor | is_floorperson | is_accounting | is_security | is_surveillance | is_admin)
