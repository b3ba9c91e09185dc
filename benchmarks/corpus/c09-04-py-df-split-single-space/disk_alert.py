"""Warn when a filesystem on the build hosts is nearly full (parses `df -kP` output)."""
import argparse
import logging
import sys
from dataclasses import dataclass

log = logging.getLogger("disk_alert")

# what `ssh build-03 df -kP` printed this morning (kept for the dry run)
SAMPLE_DF = """\
Filesystem     1024-blocks      Used Available Capacity Mounted on
/dev/nvme0n1p2    480719056 401286652  55001428      88% /
tmpfs              16337384         0  16337384       0% /dev/shm
/dev/nvme0n1p1       523248      6220    517028       2% /boot/efi
/dev/sdb1        1921724676 1843113608  78611068      96% /srv/cache
"""

IGNORED_TYPES = ("tmpfs", "devtmpfs", "overlay")


@dataclass
class Mount:
    device: str
    size_kb: int
    used_kb: int
    avail_kb: int
    mountpoint: str

    @property
    def percent(self):
        return 100.0 * self.used_kb / max(self.used_kb + self.avail_kb, 1)


def parse_df(text):
    mounts = []
    for line in text.splitlines()[1:]:  # skip the header
        if not line.strip():
            continue
        fields = line.split(" ")
        device, mountpoint = fields[0], fields[-1]
        if device in IGNORED_TYPES:
            continue
        mounts.append(Mount(device, int(fields[1]), int(fields[2]), int(fields[3]), mountpoint))
    return mounts


def human(kb):
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        if kb < 1024:
            return f"{kb:.1f} {unit}"
        kb /= 1024
    return f"{kb:.1f} PiB"


def check(mounts, warn_at, crit_at):
    worst = 0
    for m in mounts:
        level = 2 if m.percent >= crit_at else 1 if m.percent >= warn_at else 0
        if level:
            log.warning("%s %s on %s: %.0f%% used, %s free", ("", "WARN", "CRIT")[level], m.device,
                        m.mountpoint, m.percent, human(m.avail_kb))
        worst = max(worst, level)
    return worst


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--warn", type=float, default=85.0)
    parser.add_argument("--crit", type=float, default=95.0)
    parser.add_argument("--exit-code", action="store_true", help="exit 1/2 on WARN/CRIT (for the cron wrapper)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    mounts = parse_df(SAMPLE_DF)
    log.info("%d filesystem(s) checked", len(mounts))
    worst = check(mounts, args.warn, args.crit)
    if args.exit_code:
        sys.exit(worst)


if __name__ == "__main__":
    main()
