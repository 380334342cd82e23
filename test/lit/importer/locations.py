# RUN: %PYTHON %s | filecheck %s
from _harness import print_imported


# Ops carry the location of their TorchScript node; a func is named after its qualified name.
# CHECK: #[[FUNC:.*]] = loc("__torch__.located")
# CHECK-LABEL: func.func @located(
# CHECK: torch.aten.add.int {{.*}} loc(#[[ADD:loc[0-9]+]])
# CHECK: } loc(#[[FUNC]])
# CHECK: #[[ADD]] = loc("{{.*}}locations.py":{{[0-9]+}}:11)
def located(x: int) -> int:
    return x + 1


print_imported(located, debug_info=True)
