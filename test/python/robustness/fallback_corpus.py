"""Single-op programs for ops the meta fallback serves (library/meta_fallback.py), for the
op fuzzer (fuzzer.py) and its corpus test (test_fallback_corpus.py).

`TEMPLATES` holds, per op, invocations PyTorch accepts: ops real programs reach that have
no library function (stacking, linear algebra, FFT, windows, distances, losses, sorting,
NaN-aware reductions). Each is a template the fuzzer mutates and declares static, partly
dynamic or unranked, exactly as it does the library's registry invocations; the corpus test
refines each as written, static and with every dim dynamic, against PyTorch.
`build_tools/fuzz.py` runs the fuzzer's cases of them after the library's.
"""

from __future__ import annotations

import functools
from pathlib import Path

import torch

from torch_refine.library.testing import Invocation, TensorOfShape

from . import fuzzer
from .known import known_failures

# The fuzzer's failures on these ops known for a seed: (seed 0, 4 cases an op) the checks
# the fallback states no guard for, which the refined program then fails in the op.
KNOWN_FAILURES = Path(__file__).with_name("fallback_known_failures.json")


def _T(*sizes: int, dtype=torch.float32) -> TensorOfShape:
    return TensorOfShape(*sizes, dtype=dtype)


def _L(*sizes: int) -> TensorOfShape:
    return TensorOfShape(*sizes, dtype=torch.int64)


def _B(*sizes: int) -> TensorOfShape:
    return TensorOfShape(*sizes, dtype=torch.bool)


TEMPLATES: dict[str, list] = {
    # stacking and shaping
    "aten.vstack": [Invocation([_T(2, 3), _T(4, 3)]), Invocation([_T(3), _T(3)])],
    "aten.row_stack": [Invocation([_T(2, 3), _T(1, 3)])],
    "aten.dstack": [Invocation([_T(2, 3), _T(2, 3)]), Invocation([_T(2, 3, 1), _T(2, 3, 4)])],
    "aten.block_diag": [Invocation([_T(2, 3), _T(4, 1)]), Invocation([_T(2), _T(3, 3)])],
    "aten.atleast_3d": [Invocation(_T(4)), Invocation(_T(2, 3))],
    "aten.cartesian_prod": [Invocation([_T(3), _T(4)])],
    "aten.take_along_dim": [Invocation(_T(4, 5), _L(4, 2), 1), Invocation(_T(4, 5), _L(3), None)],
    "aten.diagflat": [Invocation(_T(3)), Invocation(_T(2, 2), 1)],
    "aten.narrow_copy": [Invocation(_T(6, 4), 0, 1, 3)],
    "aten.swapaxes": [Invocation(_T(2, 3, 4), 0, 2)],
    "aten.moveaxis.intlist": [Invocation(_T(2, 3, 4), [0, 1], [2, 0])],
    "aten.squeeze_copy": [Invocation(_T(2, 1, 3))],
    "aten.diagonal_scatter": [Invocation(_T(4, 5), _T(4)), Invocation(_T(4, 5), _T(3), 1)],
    "aten.native_channel_shuffle": [Invocation(_T(2, 6, 3, 3), 3)],
    # sorting, membership, NaN-aware and statistical reductions
    "aten.sort.stable": [Invocation(_T(4, 5), stable=True, dim=1), Invocation(_T(6), stable=None, dim=0)],
    "aten.argsort.stable": [Invocation(_T(4, 5), stable=True, dim=0, descending=True)],
    "aten.isin.Tensor_Tensor": [Invocation(_L(4, 3), _L(5))],
    "aten.isin.Tensor_Scalar": [Invocation(_L(4, 3), 2)],
    "aten.special_logsumexp": [Invocation(_T(4, 3), [1], False), Invocation(_T(4, 3), [0], True)],
    "aten.nansum": [Invocation(_T(4, 3), [1], False), Invocation(_T(4, 3))],
    "aten.nanmean": [Invocation(_T(4, 3), [0], True)],
    "aten.std_mean.correction": [Invocation(_T(4, 3), [1], correction=1, keepdim=False)],
    "aten.median": [Invocation(_T(4, 3))],
    "aten.nanmedian": [Invocation(_T(5))],
    "aten.all.dims": [Invocation(_B(4, 3), [0, 1], False), Invocation(_T(4, 3), [1], True)],
    "aten.frexp.Tensor": [Invocation(_T(4, 3))],
    "aten.float_power.Tensor_Tensor": [Invocation(_T(4, 3), _T(3))],
    "aten.float_power.Tensor_Scalar": [Invocation(_T(4, 3), 2)],
    "aten.trapezoid.dx": [Invocation(_T(4, 5), dx=0.5, dim=1)],
    "aten.trapezoid.x": [Invocation(_T(4, 5), _T(5), dim=-1)],
    "aten.cumulative_trapezoid.dx": [Invocation(_T(4, 5), dx=1, dim=0)],
    # linear algebra
    "aten.linalg_inv": [Invocation(_T(3, 3)), Invocation(_T(2, 4, 4))],
    "aten.linalg_solve": [Invocation(_T(3, 3), _T(3, 2)), Invocation(_T(2, 3, 3), _T(3))],
    "aten.linalg_qr": [Invocation(_T(5, 3)), Invocation(_T(3, 5), "complete")],
    "aten.linalg_svd": [Invocation(_T(5, 3), False), Invocation(_T(2, 3, 4))],
    "aten.linalg_eigh": [Invocation(_T(4, 4))],
    "aten.linalg_cholesky": [Invocation(_T(3, 3))],
    "aten.det": [Invocation(_T(2, 3, 3))],
    "aten.logdet": [Invocation(_T(3, 3))],
    "aten.slogdet": [Invocation(_T(2, 3, 3))],
    "aten.matrix_power": [Invocation(_T(3, 3), 3), Invocation(_T(2, 4, 4), 0)],
    "aten.pinverse": [Invocation(_T(5, 3))],
    "aten.chain_matmul": [Invocation([_T(2, 3), _T(3, 4), _T(4, 5)])],
    "aten.linalg_multi_dot": [Invocation([_T(2, 3), _T(3, 4), _T(4)])],
    "aten.linalg_matrix_norm": [Invocation(_T(2, 3, 4), 2), Invocation(_T(3, 4), 1, [0, 1], True)],
    "aten.linalg_vecdot": [Invocation(_T(4, 3), _T(3), dim=-1)],
    "aten.vdot": [Invocation(_T(5), _T(5))],
    "aten.ger": [Invocation(_T(3), _T(4))],
    "aten.addr": [Invocation(_T(3, 4), _T(3), _T(4)), Invocation(_T(4), _T(3), _T(4), beta=2, alpha=1)],
    "aten.addmv": [Invocation(_T(3), _T(3, 4), _T(4))],
    # spectral and windows
    "aten.fft_rfftn": [Invocation(_T(4, 6)), Invocation(_T(2, 4, 6), [4, 8], [1, 2])],
    "aten.fft_irfft": [Invocation(_T(4, 5, dtype=torch.complex64)), Invocation(_T(6, dtype=torch.complex64), 8)],
    "aten.fft_rfft2": [Invocation(_T(2, 4, 6))],
    "aten.fft_irfft2": [Invocation(_T(2, 4, 5, dtype=torch.complex64))],
    "aten.fft_fftshift": [Invocation(_T(4, 6)), Invocation(_T(4, 6), [1])],
    "aten.hann_window": [Invocation(8)],
    "aten.hamming_window": [Invocation(5)],
    "aten.kaiser_window": [Invocation(6)],
    # distances and losses
    "aten.pdist": [Invocation(_T(5, 3)), Invocation(_T(4, 2), 1.0)],
    "aten.pairwise_distance": [Invocation(_T(4, 3), _T(4, 3)), Invocation(_T(4, 3), _T(3), 2.0, 1e-6, True)],
    "aten.triplet_margin_loss": [Invocation(_T(4, 3), _T(4, 3), _T(4, 3))],
    "aten.cosine_embedding_loss": [Invocation(_T(4, 3), _T(4, 3), _T(4), 0.0, 0)],
    "aten.margin_ranking_loss": [Invocation(_T(4), _T(4), _T(4))],
    "aten.hinge_embedding_loss": [Invocation(_T(4, 3), _T(4, 3), 1.0, 0)],
    "aten.huber_loss": [Invocation(_T(4, 3), _T(4, 3)), Invocation(_T(4, 3), _T(4, 3), 0, 0.5)],
    "aten.soft_margin_loss": [Invocation(_T(4, 3), _T(4, 3), 2)],
    # sampling grids and resizing
    "aten.affine_grid_generator": [Invocation(_T(2, 2, 3), [2, 3, 4, 5], False)],
    "aten.upsample_trilinear3d.vec": [Invocation(_T(1, 2, 3, 4, 5), [6, 8, 10], False, None),
                                      Invocation(_T(1, 2, 3, 4, 5), None, True, [2.0, 1.0, 0.5])],
}


def known(seed: int) -> dict[str, tuple[str, str]]:
    return known_failures(seed, KNOWN_FAILURES)


def check_case(seed: int, case_id: str, context, phase) -> fuzzer.Outcome:
    """The fuzzer's checker for these ops (`<op>#<k>`, as the library's cases). The refined
    program runs with `allow_side_effects`: the executor's list of pure ops is the library's,
    and these programs, ours, call one op PyTorch's registry runs."""
    from unittest import mock

    from torch_refine import executor

    trusted = functools.partial(executor.execute, allow_side_effects=True)
    with mock.patch.object(executor, "execute", trusted):
        return fuzzer.check(seed, case_id, TEMPLATES[case_id.rpartition("#")[0]], context, phase)
