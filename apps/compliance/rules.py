import rules

from apps.casinos.rules import is_accounting, is_admin, is_surveillance

# The compliance matrix is for those who audit the room: accounting (internal audit's counterpart in the room),
# surveillance and administrators. It shows the code and tests, never money or patrons.
rules.add_perm("compliance.view_matrix", is_accounting | is_surveillance | is_admin)
