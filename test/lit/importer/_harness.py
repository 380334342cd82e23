"""Shared by the importer lit tests: script functions, import them as the library does
(its helper prefix and intrinsics), print the module."""

import torch

from torch_refine.library.generate import import_library_functions as import_functions


def print_imported(*functions, debug_info: bool = False) -> None:
    module = import_functions({fn.__name__: torch.jit.script(fn) for fn in functions})
    print(module.operation.get_asm(enable_debug_info=debug_info))


def print_import_error(function) -> None:
    try:
        import_functions({function.__name__: torch.jit.script(function)})
    except ValueError as error:
        print(f"error: {error}")
