"""Who may issue, revoke and see the room's display links (N.J.A.C. 13:69F-14.18, 14.19(b)-current-amount).

An administrator of the casino issues and revokes them (a link opens a screen of the room with no sign-in, so
handing one out is the administrator's act, as granting a role is). A poker shift supervisor, who runs the floor,
sees which screens are issued, where they hang, when each was last seen and which are revoked, but not their
links, and issues or revokes none. Nobody else sees them. The screens themselves show only what patrons see and
are opened by the link, with no role."""
import rules

from apps.casinos.rules import is_admin, is_supervisor, works_at_object_casino

rules.add_perm("screens.view_displaylink", (is_supervisor | is_admin) & works_at_object_casino)
rules.add_perm("screens.add_displaylink", is_admin & works_at_object_casino)
rules.add_perm("screens.change_displaylink", is_admin & works_at_object_casino)
