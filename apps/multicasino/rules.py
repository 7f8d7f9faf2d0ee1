import rules

from apps.casinos.rules import is_admin, readers

# 14.20(e)1-3, (f): everyone at a participating casino may read the system's status; links, keys and rules
# are configured by administrators (the system's key employees are given the admin role) in the admin site.
rules.add_perm("multicasino.view_system", readers)
rules.add_perm("multicasino.configure_system", is_admin)
