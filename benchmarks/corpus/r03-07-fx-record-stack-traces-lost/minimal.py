import torch.fx
class M(torch.nn.Module):
    def forward(self, x):
        return x + 1
tracer = torch.fx.Tracer()
tracer.record_stack_traces = True
assert 'code: return x + 1' in torch.fx.GraphModule(M(), tracer.trace(M())).print_readable(print_output=False)
