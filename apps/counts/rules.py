import rules

from apps.casinos.rules import (
    is_accounting,
    is_admin,
    is_security,
    is_supervisor,
    is_surveillance,
    works_at_object_casino,
)

# 14.19(d)-(f): a poker supervisor records the counts at the tables; accounting (the cage) those at the cage.
rules.add_perm("counts.record_count", (is_supervisor | is_accounting) & works_at_object_casino)
rules.add_perm("counts.view_counts",
               (is_supervisor | is_accounting | is_security | is_surveillance | is_admin) & works_at_object_casino)
# 14.19(h), (k): accounting keeps the official record and alone reconciles; others may read.
rules.add_perm("counts.reconcile", is_accounting & works_at_object_casino)
rules.add_perm("counts.view_reconciliation",
               (is_accounting | is_supervisor | is_surveillance | is_admin) & works_at_object_casino)
# 14.19(e)-aggregate: a poker shift supervisor records the contents of boxes counted at closed tables combined in one
# locked container; accounting (the cage cashier) alone verifies its aggregate count. Others may read (view_counts).
rules.add_perm("counts.combine_counts", is_supervisor & works_at_object_casino)
rules.add_perm("counts.verify_aggregate_count", is_accounting & works_at_object_casino)
