import torch

class B:
    def __init__(self):
        super().__init__()

    @staticmethod
    def test(x):
        return x + 1

def f(image):
    return B.test(image)

torch.jit.script(f)
