"""Who may use the qualifier designer: the room's managers, who propose the posted qualifying hands — the poker shift
supervisor and the administrator. It reads the room's history and runs the engine; it writes nothing."""
import rules

from apps.casinos.rules import is_admin, is_supervisor

rules.add_perm("qualifiers.design_qualifiers", is_supervisor | is_admin)
