"""Plan a rolling deploy over a pool's hosts, leaving the retired ones out of the rotation."""
import argparse
import logging
from dataclasses import dataclass

log = logging.getLogger("rotate_hosts")


@dataclass
class Host:
    name: str
    pool: str
    weight: int = 100
    retired: bool = False


# the inventory as the CMDB export lists it (sorted by name)
INVENTORY = [
    Host("web-01", "web"), Host("web-02", "web", weight=50),
    Host("web-03", "web", retired=True), Host("web-04", "web", retired=True),
    Host("web-05", "web"), Host("api-01", "api"), Host("api-02", "api", retired=True),
]


def in_pool(hosts, pool):
    return [h for h in hosts if h.pool == pool]


def prune_retired(hosts):
    """Drop retired hosts from the rotation (in place: the caller's list is the rotation)."""
    for host in hosts:
        if host.retired:
            log.info("dropping retired host %s", host.name)
            hosts.remove(host)
    return hosts


def plan_waves(hosts, wave_size):
    """Split the rotation into deploy waves; a retired host must never receive a deploy."""
    waves = []
    for start in range(0, len(hosts), wave_size):
        wave = hosts[start:start + wave_size]
        for host in wave:
            if host.retired:
                raise RuntimeError(f"{host.name} is retired but still in the rotation")
        waves.append([h.name for h in wave])
    return waves


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pool", default="web")
    parser.add_argument("--wave-size", type=int, default=2)
    parser.add_argument("--dry-run", action="store_true", default=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    rotation = prune_retired(in_pool(INVENTORY, args.pool))
    if not rotation:
        raise SystemExit(f"pool {args.pool!r} has no active hosts")
    waves = plan_waves(rotation, args.wave_size)
    for n, wave in enumerate(waves, 1):
        print(f"wave {n}: {', '.join(wave)}" + (" (dry run)" if args.dry_run else ""))


if __name__ == "__main__":
    main()
