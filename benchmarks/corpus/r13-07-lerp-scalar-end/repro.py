# Quoted from https://github.com/pytorch/pytorch/issues/57947
# ("torch.lerp to support argument type promotion / broadcasting similar to torch.where"),
# comment by vadimkantorov (the author), 2025-04-26, "Some currently failing cases:".
# Changes by the helper:
#   - added `import torch` (the snippet uses torch without importing it);
#   - the comment's code block is quoted up to its second case; the text after that case
#     (traceback output shown as comments) is not reproduced.
# The first case raises on torch 2.13.0 CPU, so the second case is not reached.
import torch

foreground_mask = torch.rand(16, 16)
image = torch.randint(0, 256, (16, 16), dtype = torch.uint8)
torch.lerp(image, 255, foreground_mask)

# TypeError: lerp() received an invalid combination of arguments - got (Tensor, int, Tensor), but expected one of:
#  * (Tensor input, Tensor end, Tensor weight, *, Tensor out = None)
#  * (Tensor input, Tensor end, Number weight, *, Tensor out = None)

image1 = torch.randint(0, 256, (16, 16), dtype = torch.uint8)
image2 = torch.randint(0, 256, (16, 16), dtype = torch.uint8)
torch.lerp(image1, image2, 0.5)
