import torch
import torch.nn as nn
import torch.optim as optim
import random
from torch.func import vmap
from torch.utils.checkpoint import checkpoint

# Set a fixed seed for reproducibility
seed = 42
torch.manual_seed(seed)
random.seed(seed)
if torch.cuda.is_available():
    torch.cuda.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)  # For multi-GPU setups
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False

# Define a simple Transformer model
class SimpleTransformer(nn.Module):
    def __init__(self, input_dim, model_dim, num_heads, num_layers, output_dim):
        super(SimpleTransformer, self).__init__()
        self.embedding = nn.Embedding(input_dim, model_dim)
        self.transformer = nn.Transformer(d_model=model_dim, nhead=num_heads, num_encoder_layers=num_layers)
        self.fc_out = nn.Linear(model_dim, output_dim)
        
    def forward(self, src, tgt):
        src = self.embedding(src)
        tgt = self.embedding(tgt)
        # output = self.transformer(src, tgt)
        output = checkpoint(self.transformer, src, tgt, use_reentrant=False)
        return self.fc_out(output)
    
def compute_loss(model,
                 weights,
                 buffers,
                 src,
                 tgt,
                 target):
    src = src.unsqueeze(1)
    tgt = tgt.unsqueeze(1)
    target = target.unsqueeze(1)
    output = torch.func.functional_call(model, (weights, buffers), (src, tgt))
    loss = nn.functional.cross_entropy(output.view(-1, output.size(-1)), target.view(-1))
    return loss

# Hyperparameters
input_dim = 100
model_dim = 32
num_heads = 4
num_layers = 2
output_dim = 100
seq_len = 10
batch_size = 8

model = SimpleTransformer(input_dim, model_dim, num_heads, num_layers, output_dim)
optimizer = optim.Adam(model.parameters(), lr=1e-3)

src = torch.randint(0, input_dim, (batch_size, seq_len))
tgt = torch.randint(0, input_dim, (batch_size, seq_len))
target = torch.randint(0, output_dim, (batch_size, seq_len))

weights = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}

# per-sample gradients
ft_compute_grad = torch.func.grad(compute_loss, argnums=1)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, None, 0, 0, 0))
per_sample_grads = ft_compute_sample_grad(model, weights, buffers, src, tgt, target)

for name, g in per_sample_grads.items():
    print(name, g.shape)
