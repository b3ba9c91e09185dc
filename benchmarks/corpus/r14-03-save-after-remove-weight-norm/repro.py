# Quoted from https://github.com/pytorch/pytorch/issues/137409
# ("Unable to save model after removing weight normalization due to remaining hooks", med1844, 2024-10-06).
# Unchanged except these header comments; runs on CPU as posted.
import torch
from torch.nn import Conv1d
from torch.nn.utils.parametrizations import weight_norm
from torch.nn.utils.parametrize import remove_parametrizations
from io import BytesIO

conv = weight_norm(Conv1d(4, 4, 3))
print(conv._load_state_dict_pre_hooks)
conv = remove_parametrizations(module=conv, tensor_name="weight")
print(conv._load_state_dict_pre_hooks)
sink = BytesIO()
torch.save(conv, sink)  # exception
