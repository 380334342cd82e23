"""torch-refine-opt: mlir-opt's command line over torch-refine's and MLIR's passes.

The driver is `driver.opt_main.OptMain`; this module is the command. Never import torch
here: start-up must stay fast.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
from collections.abc import Sequence

# What a shell reports for a command that SIGINT ended (128 + 2), as mlir-opt exits on Ctrl-C.
INTERRUPTED = 130

# Run as the command, Ctrl-C while the bindings and the driver load (a second or more on a
# busy machine) ends the process as quietly as one during a run; `main` raises
# KeyboardInterrupt again. (Imported as a library, the caller's handler stays.)
if __name__ == "__main__" or os.path.basename(sys.argv[0]) == "torch-refine-opt":
    signal.signal(signal.SIGINT, lambda *_: os._exit(INTERRUPTED))

from torch_mlir._mlir_libs._mlir import globals as _mlir_globals  # noqa: E402

from torch_refine.driver.opt_main import OptMain  # noqa: E402  # first: it loads the bindings without numpy


def main(argv: Sequence[str] | None = None) -> int:
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return OptMain().run(sys.argv[1:] if argv is None else list(argv))
    except SystemExit as exit_request:  # from argparse: 0 after --help, 2 on a usage error
        return 0 if exit_request.code in (0, None) else 1  # mlir-opt exits 1 on bad flags
    except KeyboardInterrupt:  # an interrupt, not an error: no message, no reproducer
        return INTERRUPTED


def use_generic_op_views() -> None:
    """Hand out ops as generic views from now on.

    The bindings import `torch_mlir.dialects.<namespace>` the first time they hand out an
    op of a dialect, to find its OpView class; for the Torch dialect that is 1,800 classes,
    ~50 ms and ~16 MB. torch-refine reads ops generically, so the command turns it off.
    """
    _mlir_globals.dialect_search_modules = []


def quiet_garbage_collection() -> None:
    """Turn the cycle collector off for the rest of the command. A pass allocates many
    short-lived binding objects and the evaluator's plans many tuples, few of them in
    cycles, and each collection rescans what is alive: on a 26,000-op chain the collector
    took 18% of the run (even at a gen-0 threshold of 10,000) and freed nothing that
    changed the peak memory (114 MB either way). Reference counting still frees the rest;
    the command exits without teardown. The Python API leaves the collector alone."""
    gc.disable()


def console_main() -> None:
    """The command: `main` with generic op views, then exit without tearing down the
    interpreter and the MLIR context (freeing every op one by one), as LLVM tools skip
    freeing on exit."""
    use_generic_op_views()
    quiet_garbage_collection()
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    console_main()
