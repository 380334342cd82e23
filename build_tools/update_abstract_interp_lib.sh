#!/usr/bin/env bash
# Regenerate python/torch_refine/library/_generated/ from the library's Python sources.
# Works from any directory; uses the repository's .venv when it exists.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${repo_root}/.venv/bin/python"
if [[ ! -x "${python}" ]]; then
  python="$(command -v python3)"
fi

cd "${repo_root}"
PYTHONPATH="${repo_root}/python${PYTHONPATH:+:${PYTHONPATH}}" \
  exec "${python}" -m torch_refine.library.generate "$@"
