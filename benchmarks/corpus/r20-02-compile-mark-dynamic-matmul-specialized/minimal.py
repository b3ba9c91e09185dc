import torch
@torch.compile(backend="eager")
def fn(static, dynamic):
    return static @ dynamic
dynamic = torch.randn(2, 2)
torch._dynamo.mark_dynamic(dynamic, 0)
fn(torch.randn(2, 2), dynamic)
