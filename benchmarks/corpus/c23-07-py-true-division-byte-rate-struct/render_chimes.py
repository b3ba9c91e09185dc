"""Render a sequence of chime notes to a PCM WAV file (header packed by hand, no wave module)."""
import argparse
import logging
import math
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("chimes")
NOTES = {"C5": 523.25, "E5": 659.25, "G5": 783.99, "C6": 1046.5}


@dataclass
class Format:
    sample_rate: int
    channels: int
    bits: int
    block_align: int
    byte_rate: int


def pcm_format(sample_rate: int, channels: int, bits: int) -> Format:
    block_align = channels * bits // 8
    byte_rate = sample_rate * channels * bits / 8
    return Format(sample_rate, channels, bits, block_align, byte_rate)


def render(notes: list[str], fmt: Format, note_seconds: float) -> bytes:
    peak = 2 ** (fmt.bits - 1) - 1
    per_note = int(fmt.sample_rate * note_seconds)
    frames = bytearray()
    for name in notes:
        freq = NOTES[name]
        for i in range(per_note):
            env = math.exp(-4.0 * i / per_note)
            value = int(peak * 0.6 * env * math.sin(2 * math.pi * freq * i / fmt.sample_rate))
            frames += struct.pack("<h", value) * fmt.channels
    return bytes(frames)


def wav_header(fmt: Format, data_len: int) -> bytes:
    return struct.pack(
        "<4sI4s4sIHHIIHH4sI",
        b"RIFF", 36 + data_len, b"WAVE", b"fmt ", 16, 1, fmt.channels, fmt.sample_rate,
        fmt.byte_rate, fmt.block_align, fmt.bits, b"data", data_len,
    )


def write_wav(path: Path, fmt: Format, frames: bytes) -> int:
    with path.open("wb") as fh:
        fh.write(wav_header(fmt, len(frames)))
        fh.write(frames)
    return path.stat().st_size


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("notes", nargs="*", default=["C5", "E5", "G5", "C6"])
    p.add_argument("--rate", type=int, default=8000)
    p.add_argument("--channels", type=int, default=2)
    p.add_argument("--seconds", type=float, default=0.05)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    fmt = pcm_format(args.rate, args.channels, 16)
    frames = render(args.notes, fmt, args.seconds)
    with tempfile.TemporaryDirectory(prefix="chimes-") as tmp:
        size = write_wav(Path(tmp) / "chimes.wav", fmt, frames)
    log.info("wrote %d bytes: %d notes, %.2f s", size, len(args.notes), len(frames) / fmt.byte_rate)


if __name__ == "__main__":
    main()
