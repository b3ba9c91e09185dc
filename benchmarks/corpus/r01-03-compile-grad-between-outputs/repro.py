from torch import nn
import torch

class loss_function():
    
    def __init__(self):
        pass
    
    def loss(self, latents, targets):
        
        grads = torch.autograd.grad(outputs=[(targets).sum()], inputs=[latents], 
                create_graph=True)[0]
        
        print(grads)
        return grads.mean()


class network(nn.Module):
    def __init__(self):
        super().__init__()
        
        self.down = torch.nn.Conv2d(3,4,1,1)
        self.up = torch.nn.Conv2d(4,3,1,1)
    
    def forward(self, x):
        z = self.down(x)
        dec = self.up(z)
        return dec, z

device = "cpu"
model = network().to(device)
loss_function = loss_function()


def run():
    
    data = torch.randn(4,3,256,256).to(device)
    output, latents = model(data)
    loss = loss_function.loss(latents = latents, targets = output)
    loss_two = output.mean() + loss
    loss_two.backward()

run()
#Succeeds



compiled = torch.compile(model)
model = compiled
run()
