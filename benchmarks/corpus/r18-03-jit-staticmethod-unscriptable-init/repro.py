import torch

class A:
    pass

class B(A):
    def __init__(self):
        super().__init__()

    @staticmethod
    def test(x):
        return x + 1


def f(image):
    return B.test(image)

script_f = torch.jit.script(f)
