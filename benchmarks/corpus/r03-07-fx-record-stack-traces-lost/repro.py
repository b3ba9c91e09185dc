import torch.fx
class M1(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(1, 1)
    def forward(self, x):
        return x + self.linear(x)
class M2(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.m1 = M1()
    def forward(self, x):
        return x + self.m1(x)
m = M2()
tracer = torch.fx.Tracer()
tracer.record_stack_traces=True
graph = tracer.trace(m)
sym=torch.fx.GraphModule(m,graph)
print(sym.print_readable())
assert 'code: return x + self.linear(x)' in sym.print_readable()
assert 'code: return x + self.m1(x)' in sym.print_readable()
