# Quoted from https://github.com/pytorch/pytorch/issues/152226
# ("NotImplementedError: Could not run 'aten::index.Tensor' with arguments from the 'SparseCUDA' backend.",
#  ringohoffman, 2025-04-25).
# Change made by the helper so that it runs on a CPU-only machine:
#   - device = torch.device("cuda:0")  ->  device = torch.device("cpu")
#     (the same operator is missing for SparseCPU; the error names 'SparseCPU' instead of 'SparseCUDA').
# Otherwise unchanged.
import torch

device = torch.device("cpu")
indices = torch.tensor(
    [
        [0, 1, 2, 3],
        [1, 2, 3, 4],
        [2, 3, 4, 5]
    ],
    device=device,
)
values = torch.tensor(
    [10.0, 20.0, 30.0, 40.0],
    device=device,
)
size = (4, 5, 6)

sparse_tensor = torch.sparse_coo_tensor(indices, values, size)

indices = torch.tensor([
    [0, 1],
    [1, 2],
    [2, 3],
])

dense_tensor = sparse_tensor.to_dense()
result = dense_tensor[tuple(indices)]
# tensor([10., 20.], device='cuda:0')

sparse_result = sparse_tensor[indices]
# NotImplementedError: Could not run 'aten::index.Tensor' with arguments from the 'SparseCUDA' backend. This could be because the operator doesn't exist for this backend, or was omitted during the selective/custom build process (if using custom build). If you are a Facebook employee using PyTorch on mobile, please visit https://fburl.com/ptmfixes for possible resolutions. 'aten::index.Tensor' is only available for these backends: [CPU, CUDA, HIP, MPS, IPU, XPU, HPU, VE, MTIA, PrivateUse1, PrivateUse2, PrivateUse3, Meta, FPGA, MAIA, Vulkan, Metal, QuantizedCPU, QuantizedCUDA, QuantizedHIP, Q
