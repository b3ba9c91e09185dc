"""Compare a stick-based torch.compile backend against eager on a few ops and shapes.

The "stick" backend models an accelerator (like Spyre) whose memory is organised in
128-byte *sticks*: the innermost dimension of every tensor is stored in chunks of
``STICK_BYTES // itemsize`` elements (64 for float16).  Copies are lowered to
stick-granular DMA transfers by an FX pass, and the rewritten graph is then handed to
Inductor, so ``TORCH_COMPILE_DEBUG=1`` dumps the usual ``fx_graph_readable.py`` etc.

For every op/shape case the script runs the op eagerly and compiled and requires the
results to match.

Usage:
    python check_stick_backend.py [--verbose]
    TORCH_COMPILE_DEBUG=1 python check_stick_backend.py
"""

import argparse
import operator
from dataclasses import dataclass

import torch
import torch.fx
from torch._inductor.compile_fx import compile_fx

STICK_BYTES = 128
SEED = 2024
VERBOSE = False
COPY_TARGETS = {torch.clone, torch.Tensor.clone, torch.ops.aten.clone.default}


def elems_per_stick(dtype: torch.dtype) -> int:
    return STICK_BYTES // torch.empty((), dtype=dtype).element_size()


def log(msg: str) -> None:
    if VERBOSE:
        print(f"[stick] {msg}")


def is_copy_node(node: torch.fx.Node) -> bool:
    if node.op == "call_method":
        return node.target == "clone"
    return node.op == "call_function" and node.target in COPY_TARGETS


def lower_copies_to_sticks(gm: torch.fx.GraphModule) -> int:
    """Replace each clone with a stick-granular copy: whole sticks are DMA'd, the tail is zero."""
    graph = gm.graph
    rewritten = 0
    for node in list(graph.nodes):
        if not is_copy_node(node):
            continue
        val = node.meta.get("example_value")
        if val is None or val.dim() == 0:
            continue
        size = val.shape[-1]
        per_stick = elems_per_stick(val.dtype)
        num_sticks = max(1, size // per_stick)
        copied = min(size, num_sticks * per_stick)
        src = node.args[0]
        with graph.inserting_before(node):
            moved = graph.call_function(torch.narrow, (src, -1, 0, copied))
            padded = graph.call_function(torch.nn.functional.pad, (moved, (0, size - copied)))
        node.replace_all_uses_with(padded)
        graph.erase_node(node)
        log(f"lowered {node.name}: {tuple(val.shape)} {val.dtype} -> {num_sticks} stick(s), {copied} elems")
        rewritten += 1
    graph.lint()
    gm.recompile()
    return rewritten


def stick_backend(gm: torch.fx.GraphModule, example_inputs):
    n = lower_copies_to_sticks(gm)
    log(f"graph with {len(gm.graph.nodes)} nodes, {n} copy node(s) lowered")
    if VERBOSE:
        print(gm.code)
    return compile_fx(gm, example_inputs)


@dataclass
class OpCase:
    name: str
    fn: object
    shape: tuple
    dtype: torch.dtype = torch.float16

    def make_inputs(self, gen: torch.Generator):
        return (torch.randn(self.shape, generator=gen).to(self.dtype),)


def scaled_add(x):
    return operator.add(x * 0.5, 1.0)


def relu(x):
    return torch.relu(x)


def copy(x):
    return x.clone()


CASES = [
    OpCase("scaled_add", scaled_add, (64,)),
    OpCase("relu", relu, (8, 64)),
    OpCase("clone", copy, (64,)),
    OpCase("clone", copy, (4, 128)),
    OpCase("clone", copy, (65,)),
]


def run_case(case: OpCase, compiled_fns: dict, gen: torch.Generator) -> None:
    if case.name not in compiled_fns:
        compiled_fns[case.name] = torch.compile(case.fn, backend=stick_backend, dynamic=False)
    inputs = case.make_inputs(gen)
    eager_out = case.fn(*inputs)
    compiled_out = compiled_fns[case.name](*inputs)
    torch.testing.assert_close(compiled_out, eager_out)
    print(f"[check] {case.name:<11} {str(list(case.shape)):<9} {case.dtype}  ok")


def main() -> None:
    global VERBOSE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    VERBOSE = args.verbose

    torch.manual_seed(SEED)
    gen = torch.Generator().manual_seed(SEED)
    print(
        f"[main] {len(CASES)} cases, stick = {STICK_BYTES} bytes ({elems_per_stick(torch.float16)} x float16)"
    )
    compiled_fns = {}
    for case in CASES:
        run_case(case, compiled_fns, gen)
    print("[main] all cases match eager")


if __name__ == "__main__":
    main()
