"""Shape arithmetic for building classifier heads without a dummy forward pass."""


def conv_out(size, kernel, stride=1, padding=0):
    """Output length of a convolution / pooling along one axis."""
    return (size - kernel) // stride + 1


def conv_stack_out(size, layers):
    for kernel, stride, padding in layers:
        size = conv_out(size, kernel, stride, padding)
    return size
