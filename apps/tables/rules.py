import rules

from apps.casinos.rules import is_admin, is_floorperson, is_supervisor, readers, works_at_object_casino

rules.add_perm("tables.view_pokertable", readers & works_at_object_casino)
rules.add_perm("tables.change_pokertable", (is_supervisor | is_admin) & works_at_object_casino)
rules.add_perm("tables.add_pokertable", (is_supervisor | is_admin) & works_at_object_casino)
# Opening and closing a table for play: the poker shift supervisor and the floorpersons, at their casino (issue 34).
rules.add_perm("tables.open_close_table", (is_supervisor | is_floorperson) & works_at_object_casino)
