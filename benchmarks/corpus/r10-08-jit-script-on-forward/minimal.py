import torch

@torch.jit.script
def forward(self, x: torch.Tensor):
    return self.fc1(x)
