import torch
from torch._inductor.compile_fx import compile_fx


def stick_backend(gm, example_inputs):
    # Lower clone() to a copy of the first 64-element stick; the tail is zero-filled.
    for node in list(gm.graph.nodes):
        if node.op == "call_method" and node.target == "clone":
            with gm.graph.inserting_before(node):
                first_stick = gm.graph.call_function(torch.narrow, (node.args[0], -1, 0, 64))
                padded = gm.graph.call_function(torch.nn.functional.pad, (first_stick, (0, 1)))
            node.replace_all_uses_with(padded)
            gm.graph.erase_node(node)
    gm.recompile()
    return compile_fx(gm, example_inputs)


def copy(x):
    return x.clone()


x = torch.ones(65, dtype=torch.float16)
compiled = torch.compile(copy, backend=stick_backend)
torch.testing.assert_close(compiled(x), copy(x))
