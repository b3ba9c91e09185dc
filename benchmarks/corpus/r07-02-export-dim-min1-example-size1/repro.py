import torch


# Simple model
class MLP(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x @ x.T)


model = MLP().eval().cpu()

# Define inputs with dynamic batch dim
inputs = [torch.randn(1, 128, device="cpu")] # An example input that is the same shape as min shape

dynamic_shapes = ({0: torch.export.Dim("batch", min=1, max=32)},) # Explicitly set the dynamic shape for tracing 

# Export with dynamic shapes
exp_program = torch.export.export(model, tuple(inputs), dynamic_shapes=dynamic_shapes) # This line fails 
