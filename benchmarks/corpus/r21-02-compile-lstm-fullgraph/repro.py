import torch
import torch.nn as nn

class MyModel(nn.Module):
    def __init__(self, rnn_dims=512):
        super().__init__()
        self.rnn = nn.LSTM(input_size=rnn_dims, hidden_size=rnn_dims, batch_first=True)

    def forward(self, x):
        h0 = torch.zeros(1, x.size(0), self.rnn.hidden_size, device=x.device, dtype=x.dtype)
        c0 = torch.zeros(1, x.size(0), self.rnn.hidden_size, device=x.device, dtype=x.dtype)
        out, h1 = self.rnn(x, (h0, c0))
        return h1

if __name__ == "__main__":
    torch.manual_seed(0)
    model = MyModel().eval().to("cpu")
    input_tensor = torch.rand(1, 1, 512, dtype=torch.float32).to("cpu")

    with torch.no_grad():
        eager_output = model(input_tensor)
    print("Eager output:", eager_output[0].shape, eager_output[1].shape)

    compiled_model = torch.compile(model, fullgraph=True, backend="inductor")
    with torch.no_grad():
        compiled_output = compiled_model(input_tensor)
    print("Compiled output:", compiled_output[0].shape, compiled_output[1].shape)
