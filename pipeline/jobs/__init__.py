"""Background jobs run by `converse worker run-once`: daily consolidation of duplicate
memories and theory-of-mind insights (docs/memory.md, "Background jobs")."""

from pipeline.jobs.consolidation import Consolidated, consolidate
from pipeline.jobs.run import JobsDone, run_jobs
from pipeline.jobs.theory_of_mind import Reflected, reflect

__all__ = ["Consolidated", "JobsDone", "Reflected", "consolidate", "reflect", "run_jobs"]
