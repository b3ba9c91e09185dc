import struct


def pcm_format(sample_rate, channels, bits):
    byte_rate = sample_rate * channels * bits / 8
    return byte_rate


def wav_header(byte_rate, data_len=0, channels=2, sample_rate=8000, block_align=4, bits=16):
    return struct.pack(
        "<4sI4s4sIHHIIHH4sI",
        b"RIFF", 36 + data_len, b"WAVE", b"fmt ", 16, 1, channels, sample_rate,
        byte_rate, block_align, bits, b"data", data_len,
    )


wav_header(pcm_format(8000, 2, 16))
