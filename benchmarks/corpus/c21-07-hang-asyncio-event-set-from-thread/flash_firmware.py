"""Flash a firmware image onto the bench's devices, one at a time, from an asyncio orchestrator."""

import argparse
import asyncio
import hashlib
import logging
import threading
import time

log = logging.getLogger("flash_firmware")


def write_image(device: str, image: bytes, block_delay: float) -> str:
    """The vendor's blocking flasher (a serial-port tool in production): blocks, then the readback digest."""
    for _ in range(0, len(image), 4096):
        time.sleep(block_delay)
    return hashlib.sha256(device.encode() + image).hexdigest()[:12]


def flash_worker(device: str, image: bytes, block_delay: float, results: dict, done: asyncio.Event) -> None:
    try:
        results[device] = write_image(device, image, block_delay)
    except OSError as exc:
        results[device] = f"failed: {exc}"
    finally:
        done.set()  # wake the orchestrator


async def flash_all(devices: list[str], image: bytes, block_delay: float) -> dict:
    results: dict[str, str] = {}
    for device in devices:
        done = asyncio.Event()
        worker = threading.Thread(target=flash_worker, args=(device, image, block_delay, results, done),
                                  name=f"flash-{device}", daemon=True)
        started = time.perf_counter()
        worker.start()
        await done.wait()
        log.info("%s: %s in %.2fs", device, results[device], time.perf_counter() - started)
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--devices", nargs="+", default=["bench-01", "bench-02", "bench-03"])
    parser.add_argument("--image-kb", type=int, default=32)
    parser.add_argument("--block-delay", type=float, default=0.02, help="seconds per 4 KiB block")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")

    image = bytes(range(256)) * (args.image_kb * 4)
    results = asyncio.run(flash_all(args.devices, image, args.block_delay))
    failed = [d for d, r in results.items() if r.startswith("failed")]
    print(f"{len(results) - len(failed)} flashed, {len(failed)} failed")


if __name__ == "__main__":
    main()
