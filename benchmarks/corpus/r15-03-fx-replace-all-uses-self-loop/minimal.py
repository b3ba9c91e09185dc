import torch

traced = torch.fx.symbolic_trace(lambda x: x + 1)
_, add, _ = traced.graph.nodes
with traced.graph.inserting_after(add):
    relu = traced.graph.call_function(torch.relu, args=(add,))
    add.replace_all_uses_with(relu)
traced.recompile()
traced(torch.ones(1))
