"""Check how far the keyword spotter's float32 outputs drift from a float64 reference run."""

import argparse
import math

import torch
from torch import nn

SAMPLE_RATE = 16000
N_FFT = 400
HOP = 160
N_MELS = 40


def hz_to_mel(hz):
    return 2595.0 * math.log10(1.0 + hz / 700.0)


def mel_filterbank(n_mels, n_fft, sample_rate):
    """Triangular mel filters, shape (n_mels, n_fft // 2 + 1)."""
    n_freqs = n_fft // 2 + 1
    freqs = torch.linspace(0, sample_rate / 2, n_freqs)
    mels = torch.linspace(hz_to_mel(0), hz_to_mel(sample_rate / 2), n_mels + 2)
    hz = 700.0 * (10 ** (mels / 2595.0) - 1.0)
    fb = torch.zeros(n_mels, n_freqs)
    for m in range(n_mels):
        lo, mid, hi = hz[m], hz[m + 1], hz[m + 2]
        up = (freqs - lo) / (mid - lo)
        down = (hi - freqs) / (hi - mid)
        fb[m] = torch.clamp(torch.minimum(up, down), min=0.0)
    return fb


class LogMel(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("window", torch.hann_window(N_FFT))
        self.fb = mel_filterbank(N_MELS, N_FFT, SAMPLE_RATE)

    def forward(self, wav):
        spec = torch.stft(wav, N_FFT, HOP, window=self.window, return_complex=True).abs() ** 2
        return torch.log(torch.matmul(self.fb, spec) + 1e-6)


class Frontend(nn.Module):
    def __init__(self):
        super().__init__()
        self.logmel = LogMel()
        self.norm = nn.InstanceNorm1d(N_MELS)

    def forward(self, wav):
        return self.norm(self.logmel(wav))


class KeywordSpotter(nn.Module):
    def __init__(self, n_keywords=12):
        super().__init__()
        self.frontend = Frontend()
        self.encoder = nn.Sequential(
            nn.Conv1d(N_MELS, 64, 5, padding=2), nn.ReLU(),
            nn.Conv1d(64, 64, 5, padding=2, stride=2), nn.ReLU(),
        )
        self.head = nn.Linear(64, n_keywords)

    def forward(self, wav):
        h = self.encoder(self.frontend(wav))
        return self.head(h.mean(dim=-1))


def test_tones(batch, seconds=1.0):
    t = torch.arange(int(SAMPLE_RATE * seconds)) / SAMPLE_RATE
    freqs = torch.tensor([220.0, 440.0, 880.0, 1760.0])[:batch, None]
    return 0.3 * torch.sin(2 * math.pi * freqs * t)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--tol", type=float, default=1e-4)
    args = p.parse_args()
    torch.manual_seed(0)
    model = KeywordSpotter().eval()
    wav = test_tones(args.batch)
    with torch.no_grad():
        out32 = model(wav)
        ref = model.to(torch.float64)(wav.double())
    drift = (out32.double() - ref).abs().max().item()
    print(f"max |float32 - float64| = {drift:.2e}")
    if drift > args.tol:
        raise SystemExit(f"drift {drift:.2e} above tolerance {args.tol:g}")


if __name__ == "__main__":
    main()
