import torch

@torch.jit.script
def foo1(a, b, x, y):
    return a / b + torch.cat([])

@torch.jit.script
def foo2(a, b, x, y):
    return a / b + torch.cat([y], dim=-2)

for foo in (foo1, foo2):
    g = foo.graph
    for inp in foo.graph.inputs():
        inp.setType(inp.type().with_sizes([]))
    shape_compute_graph = torch._C._jit_pass_propagate_shapes_on_graph_and_build_compute(foo.graph)
