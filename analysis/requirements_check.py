# SPDX-License-Identifier: GPL-2.0-only
"""Fail with one clear line when the analysis scripts' Debian packages are missing.

Imported first by every script: the scripts need numpy and matplotlib as Debian packages them
(python3-numpy, python3-matplotlib), which Debian's own interpreter, /usr/bin/python3, sees. A
python3 from elsewhere (a virtualenv, pyenv) may not.
"""

import importlib.util
import sys

_missing = [m for m in ("numpy", "matplotlib") if importlib.util.find_spec(m) is None]
if _missing:
    sys.stderr.write(
        "error: the analysis scripts need %s; install python3-numpy and python3-matplotlib "
        "(apt-get) and run them with Debian's /usr/bin/python3 (this is %s)\n"
        % (" and ".join(_missing), sys.executable))
    sys.exit(2)
