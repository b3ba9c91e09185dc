import torch

torch.manual_seed(0)

class SimpleModel(torch.nn.Module):
    def __init__(self):
        super(SimpleModel, self).__init__()
        self.conv = torch.nn.Conv2d(1, 3, kernel_size=3, stride=1, padding=1)
        self.upsample = torch.nn.Upsample(scale_factor=2, mode='bilinear', align_corners=True)

    def forward(self, x):
        x = self.conv(x)
        x = torch.floor(x)
        x = self.upsample(x)
        x = torch.unique_consecutive(x)
        return x

model = SimpleModel()
inputs = torch.randn(1, 1, 16, 16)
res = model(inputs)
compiled_model = torch.compile(model, backend='inductor')
compiled_out = compiled_model(inputs)
torch.testing.assert_close(res, compiled_out, rtol=1e-3, atol=1e-3)
