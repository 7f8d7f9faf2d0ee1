"""Reading PHH hand histories (the Poker Hand History standard) and accounting for their actions ourselves.

pokerkit defines the notation: the fields of a hand and which ones each variant requires (`HandHistory`), the
action grammar we follow (`d dh`, `d db`, `pN cc`, `cbr`, `f`, `pb`, `sd`, `sm`) and the text a hand is
identified by (`HandHistory.dumps`). We do not replay the hand in pokerkit: from the actions we work out what
each player put in each betting round, the uncalled bet given back (14.14(d)), dead antes, folds, the cards
held, discarded and drawn, and who showed what; the hand engine then judges the showdown. That takes in every
game of 14.8, 14.12A and 14.12B, including hands pokerkit cannot replay (all-in players showing before the last
card is dealt).

Money is Decimal dollars: a PHH amount is read as dollars and must have at most two decimal places.

- documents: the variants taken in, the hands of a `.phh` or `.phhs` text (`sections`; `open_sections` reads a text or
  file hand by hand without holding it whole), a hand's identity (`source_digest`), and what a hand becomes
  (`ParsedHand`, `RefusedHand`), with what its history says the players received (`SourceWinnings`, for the rake
  audit).
- parsing: each hand's fields read and checked (`parse_phh`).
- accounting: the actions accounted for, chips and cards (`_Account`), and `finishing_stacks`.
"""
from .accounting import finishing_stacks as finishing_stacks
from .documents import ParsedHand as ParsedHand
from .documents import PhhError as PhhError
from .documents import PhhSource as PhhSource
from .documents import RefusedHand as RefusedHand
from .documents import Sections as Sections
from .documents import SourceWinnings as SourceWinnings
from .documents import Stakes as Stakes
from .documents import Variant as Variant
from .documents import open_sections as open_sections
from .documents import sections as sections
from .documents import source_digest as source_digest
from .documents import variant_of as variant_of
from .parsing import parse_phh as parse_phh
from .parsing import parse_sections as parse_sections
