import rules

from apps.casinos.rules import is_admin, is_supervisor, readers, works_at_object_casino

rules.add_perm("rake.view_rakerecord", readers & works_at_object_casino)
rules.add_perm("rake.change_rakestructure", (is_supervisor | is_admin) & works_at_object_casino)
