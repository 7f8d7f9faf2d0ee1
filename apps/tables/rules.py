import rules

from apps.casinos.rules import is_admin, is_supervisor, readers, works_at_object_casino

rules.add_perm("tables.view_pokertable", readers & works_at_object_casino)
rules.add_perm("tables.change_pokertable", (is_supervisor | is_admin) & works_at_object_casino)
rules.add_perm("tables.add_pokertable", (is_supervisor | is_admin) & works_at_object_casino)
