import torch
import torch.nn as nn
import torch.fx as fx
class TmpModel(nn.Module):
      def __init__(self):
          super(TmpModel, self).__init__()
  
      def forward(self, x):
          tmp = x.size()
          x = sum(tmp)
          return x

fx.symbolic_trace(TmpModel())
