import torch
from torch.autograd.functional import jacobian
from torch.func import jacrev, jacfwd

torch.manual_seed(420)

a = torch.zeros((3, 3)).bfloat16()

def func(a):

    def TEMP_FUNC(a):
        """[WIP] BFloat16 support on CPU
        """
        b = a * 2
        b.storage()
        return b
    return TEMP_FUNC(a)
test_inputs = [a]

print(func(a))
# tensor([[0., 0., 0.],
#         [0., 0., 0.],
#         [0., 0., 0.]], dtype=torch.bfloat16)
print(jacobian(func, a, vectorize=True, strategy="reverse-mode"))
# succeed
print(jacrev(func)(a))
# NotImplementedError: Cannot access storage of TensorWrapper
