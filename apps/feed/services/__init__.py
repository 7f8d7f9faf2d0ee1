"""The hand feed's writes, by concern; callers import them from here (`from apps.feed.services import ...`).

- money_path: `record_round_of_play` and `record_batch_of_rounds`, the one money path in the regulation's order
  (its docstring lists the steps), and the records it writes.
- verification: steps 1 and 2 of that path, before anything is written (`verify_round`, `verify_rounds`,
  `build_round`).
- phh_imports: `import_phh`, a PHH text verified whole, then written along the money path in batches (each written
  while the next is read); `import_phh_files`, files one after the other or by worker processes at once.
- import_jobs: a large API import kept as a job and run by Celery (`queue_import`, `run_import_job`, the sweeper).
"""
from ..types import DrawIn as DrawIn
from ..types import PlayerIn as PlayerIn
from ..types import RoundIn as RoundIn
from .import_jobs import ASYNC_IMPORT_HANDS as ASYNC_IMPORT_HANDS
from .import_jobs import count_hands as count_hands
from .import_jobs import queue_import as queue_import
from .import_jobs import run_import_job as run_import_job
from .import_jobs import send_import_job as send_import_job
from .import_jobs import sweep_import_jobs as sweep_import_jobs
from .money_path import betting_round_totals as betting_round_totals
from .money_path import record_batch_of_rounds as record_batch_of_rounds
from .money_path import record_round_of_play as record_round_of_play
from .phh_imports import ImportSummary as ImportSummary
from .phh_imports import VariantTally as VariantTally
from .phh_imports import import_phh as import_phh
from .phh_imports import import_phh_files as import_phh_files
from .verification import VerifiedRound as VerifiedRound
from .verification import build_round as build_round
from .verification import verify_round as verify_round
from .verification import verify_rounds as verify_rounds
