"""Compile a retrieval scorer with fullgraph=True (no graph breaks allowed) and score a batch."""
import torch
from torch import nn

torch.manual_seed(0)


class Projection(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.proj = nn.Linear(dim_in, dim_out, bias=False)
        self.norm = nn.LayerNorm(dim_out)

    def forward(self, x):
        return self.norm(self.proj(x))


class CalibratedThresholds(nn.Module):
    """Per-query acceptance thresholds, calibrated offline and stored as a buffer."""

    def __init__(self, n_queries=4, init=0.2):
        super().__init__()
        self.register_buffer("thresholds", torch.full((n_queries,), init))

    def forward(self, scores):
        accepted = []
        for row, limit in zip(scores, self.thresholds.tolist()):
            accepted.append(torch.where(row > limit, row, torch.zeros_like(row)))
        return torch.stack(accepted)


class DualEncoderScorer(nn.Module):
    def __init__(self, dim_text=48, dim_image=64, dim=32):
        super().__init__()
        self.text = Projection(dim_text, dim)
        self.image = Projection(dim_image, dim)
        self.thresholds = CalibratedThresholds()

    def forward(self, text, image):
        t = nn.functional.normalize(self.text(text), dim=-1)
        i = nn.functional.normalize(self.image(image), dim=-1)
        return self.thresholds(t @ i.T)


def main():
    model = DualEncoderScorer().eval()
    compiled = torch.compile(model, fullgraph=True, backend="eager")
    text, image = torch.randn(4, 48), torch.randn(4, 64)
    with torch.no_grad():
        logits = compiled(text, image)
    print("best match per text:", logits.argmax(-1).tolist())


if __name__ == "__main__":
    main()
