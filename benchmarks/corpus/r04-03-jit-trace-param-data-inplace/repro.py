import torch
import torch.nn as nn
import torch.nn.parameter as parameter

# Step 1: Define the PyTorch function
class StatefulModel(nn.Module):
    def __init__(self):
        super(StatefulModel, self).__init__()
        self.param = parameter.Parameter(torch.tensor(0.0))

    def forward(self, x):
        self.param.data += x
        return self.param

# Step 2: Create an instance of the model
model = StatefulModel()

# Step 3: Attempt to serialize and deserialize the model (simulating deployment)
import torch.jit as jit

# Trace the model
traced_model = jit.trace(model, (torch.tensor(1.0),))

# Save and load the traced model
model_script = jit.script(model)
model_script.save('stateful_model.pt')
model_script = jit.script(model).load('stateful_model.pt')

# Step 4: Test the loaded model
input_tensor = torch.tensor(2.0)
output = model_script(input_tensor)
print(output)
