"""The `transformers.*` functions skip the signature check at build time (the library build
does not import transformers, which registers the ops): check them against the registered
schemas here."""

import pytest

from torch_refine.library import registry, signatures


def test_transformers_signatures_match_the_registered_schemas():
    pytest.importorskip("transformers.integrations.moe")  # registers torch.ops.transformers
    signatures.schemas.cache_clear()  # a cached table predates the registration
    entries = [f for f in registry.functions() if f.op.startswith("transformers.")]
    assert entries
    for entry in entries:
        signatures.check_signature(entry.op, entry.kind, entry.source)
