"""Who may turn a casino's public feed and page on and off (N.J.A.C. 13:69F-14.18): an administrator of the casino,
in the admin site (what the room tells the public is the administrator's act, as issuing a display link is). The
feed and the page themselves are open to anyone (apps.core.policy.public) and show only what patrons see."""
import rules

from apps.casinos.rules import is_admin, works_at_object_casino

rules.add_perm("public.view_publicfeed", is_admin & works_at_object_casino)
rules.add_perm("public.add_publicfeed", is_admin & works_at_object_casino)
rules.add_perm("public.change_publicfeed", is_admin & works_at_object_casino)
