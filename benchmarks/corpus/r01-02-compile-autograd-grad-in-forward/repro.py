import torch
class my_module(torch.nn.Module):
    def __init__(self):
        super(my_module, self).__init__()
    def forward(self, x):
        F = x**3 - 2*x**2 - 3
        grad_outputs = torch.ones_like(F)
        dF = torch.autograd.grad(F, x, grad_outputs=grad_outputs)[0]
        return F, dF

if __name__ == "__main__":
    model = my_module()  # ADAPTED: the posted script uses `model` without creating it
    x = torch.randn(10)
    x.requires_grad_(True)
    y, dy = model(x)
    print(y, dy)
    model = torch.compile(model, fullgraph=True, backend="inductor")
    y, dy = model(x)
    print(y, dy)
