# SPDX-License-Identifier: GPL-2.0-only
"""MRC for ns-3, from Python (docs/python.md).

- :func:`load` reads any results directory into DataFrames (:class:`Results`);
- :class:`Experiment` and :func:`compare` run schemes (MRC, RoCE) on a fabric with a training
  job and faults, writing a results directory as the C++ programs do;
- the C++ classes they use are here too, thinly bound: :class:`Scheme` (MrcSchemeHelper),
  :class:`TrainingJob`, :class:`FaultHelper`, :class:`FaultInjector`, :class:`ResultsDir`,
  :class:`Recorder`, :class:`Fabric`, and :func:`run`, :func:`destroy`, :func:`set_seed`,
  :func:`set_default` (ns-3's Config::SetDefault), :func:`set_global`.

Example::

    import mrc
    res = mrc.compare(["mrc", "roce"], out="results/hello", hosts=16, planes=4,
                      faults=[(100, "switch_reboot", "plane0/t0-0", 200)])
    res.step_summary()
"""

from ._core import (  # noqa: F401
    Fabric,
    FaultHelper,
    FaultInjector,
    Recorder,
    ResultsDir,
    Scheme,
    TrainingJob,
    destroy,
    load_workload,
    now_us,
    run,
    scheme_names,
    set_default,
    set_global,
    set_run,
    set_seed,
)
from .experiment import Experiment, compare  # noqa: F401
from .results import Results, ResultsError, load  # noqa: F401

__all__ = [
    "Experiment", "compare", "load", "Results", "ResultsError",
    "Scheme", "TrainingJob", "FaultHelper", "FaultInjector", "ResultsDir", "Recorder", "Fabric",
    "run", "destroy", "set_seed", "set_run", "set_default", "set_global", "now_us",
    "scheme_names", "load_workload",
]
