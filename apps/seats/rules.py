"""Who keeps the seats and the waitlists (django-rules). The floor (floorpersons, the poker shift supervisor,
administrators) keeps them; a dealer and surveillance read the board (a dealer sees who is coming to the table) but
change nothing; telephone numbers are the floor's only. Accounting and security have no business with the lists."""
import rules

from apps.casinos.rules import floor_staff, is_dealer, is_surveillance

rules.add_perm("seats.view_board", floor_staff | is_dealer | is_surveillance)
rules.add_perm("seats.keep_board", floor_staff)
