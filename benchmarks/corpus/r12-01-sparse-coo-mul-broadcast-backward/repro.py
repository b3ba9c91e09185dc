import torch
print(torch.__version__)
cuda = torch.device('cpu')

a_o = torch.tensor([-3, -4]
                   , dtype=torch.float32, device=cuda)

a_p = torch.tensor([[-3, 1],
                    [ 1,-1],
                    [ 1, 2],]
                   , dtype=torch.float32, device=cuda)

#  /->
""" without this line everything works,
but I need to compress terribly large matrices
so that the data fits in the memory of the GPU
"""
a_p = a_p.to_sparse_coo()
#  <-/

b_p = torch.tensor([  0, -2, -14,]
                   , dtype=torch.float32, device=cuda)

x = torch.zeros([len(a_o)], dtype=torch.float32, device=cuda)
x.requires_grad = True

def model_lp(x):
    return (torch.mul(a_o, x).sum()) + (torch.add(b_p, torch.sum(torch.mul(a_p, x), dim=1)).relu().square().sum()*10_000)

optimizer = torch.optim.Adam([x], lr=3e-3)

for step in range(10000):
    pred = model_lp(x)  
    optimizer.zero_grad()  
    pred.backward()  
    optimizer.step() 
    if step % 1000 == 0:
        print(f'step {step}: f(x)={pred.item()}, x={x.tolist()},' ) 
