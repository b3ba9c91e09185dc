import torch
import torch.nn as nn

class Model(nn.Module):
  def __init__(self):
    super().__init__()
    self.linear = nn.Linear(3, 3)
  
  def forward(self, x):
    input_shape = x.shape
    hidden_states = self.linear(x)
    y1 = (hidden_states.size(-1), ) + input_shape
    y2 = tuple(input_shape) + (hidden_states.size(-1), )
    y3 = input_shape + (hidden_states.size(-1), )


torch.fx.symbolic_trace(Model(), concrete_args={'x': torch.randint(100, (2, 3))})
