# Source: https://github.com/pytorch/pytorch/issues/159555 (reporter's script, issue description)
import torch
tensor = torch.randn(3, 3, dtype=torch.float32)
labels = torch.randint(0, 10, (3,), dtype=torch.long)
with open('dummy.pth', 'wb') as f:
    torch.save({'tensor': tensor, 'labels': labels}, f)
loaded_data = torch.load('dummy.pth', weights_only=True, errors='ignore')
