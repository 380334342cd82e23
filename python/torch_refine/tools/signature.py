"""torch-refine-signature: print the def line a library function must have.

    torch-refine-signature aten.add.Tensor          # shape and dtype
    torch-refine-signature aten.mm shape
"""

from __future__ import annotations

import argparse
import sys

from torch_refine.library.signatures import KINDS, SignatureError, expected_signature


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="torch-refine-signature",
        description="Print the registry-derived signature of a library function, ready to paste.",
    )
    parser.add_argument("op", help="op overload as in the Torch dialect, e.g. aten.add.Tensor")
    parser.add_argument("kinds", nargs="*", metavar="kind",
                        help=f"any of {', '.join(KINDS)} (default: shape dtype)")
    args = parser.parse_args(argv)
    try:
        blocks = [
            f'@{kind}("{args.op}", invocations=[])\n{expected_signature(args.op, kind)}\n'
            for kind in args.kinds or ["shape", "dtype"]
        ]
    except SignatureError as error:
        print(f"torch-refine-signature: error: {error}", file=sys.stderr)
        return 1
    print("\n".join(blocks), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
