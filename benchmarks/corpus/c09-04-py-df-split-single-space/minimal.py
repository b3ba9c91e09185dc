from collections import namedtuple

Mount = namedtuple("Mount", "device size_kb used_kb avail_kb mountpoint")
SAMPLE_DF = """\
Filesystem     1024-blocks      Used Available Capacity Mounted on
/dev/nvme0n1p2    480719056 401286652  55001428      88% /
"""


def parse_df(text):
    mounts = []
    for line in text.splitlines()[1:]:
        fields = line.split(" ")
        device, mountpoint = fields[0], fields[-1]
        mounts.append(Mount(device, int(fields[1]), int(fields[2]), int(fields[3]), mountpoint))
    return mounts


parse_df(SAMPLE_DF)
