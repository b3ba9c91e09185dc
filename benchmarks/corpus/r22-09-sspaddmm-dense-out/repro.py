import torch
M, N, K = 4, 3, 5

indices_input = torch.randint(0, M, (6, 1)).T
indices_input = torch.cat([indices_input, torch.randint(0, K, (6, 1)).T], dim=0)
values_input = torch.rand(6)
input_sparse = torch.sparse_coo_tensor(indices_input, values_input, (M, K))

indices_mat1 = torch.randint(0, M, (8, 1)).T
indices_mat1 = torch.cat([indices_mat1, torch.randint(0, N, (8, 1)).T], dim=0)
values_mat1 = torch.rand(8)
mat1_sparse = torch.sparse_coo_tensor(indices_mat1, values_mat1, (M, N))

mat2_dense = torch.randn(N, K)

result_tensor = torch.zeros(M, K)
result = torch.sspaddmm(input_sparse, mat1_sparse, mat2_dense, out=result_tensor)

print("Result Shape:", result.shape)
print("Result (dense view):")
print(result.to_dense())
