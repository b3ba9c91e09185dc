def unzip(path, dest):
    return ["unzip", "-q", "-o", path, "-d", dest]


def untar_gz(path, dest):
    return ["tar", "-xzf", path, "-C", dest, "--strip-components=1"]


def untar_xz(path, dest):
    return ["tar", "-xJf", path, "-C", dest, "--strip-components=1"]


def copy_wheel(path, dest):
    return ["cp", path, dest]


UNPACKERS = {
    ".zip": unzip,
    ".whl": copy_wheel,
    ".tar.gz": untar_gz,
    ".tgz": untar_gz,
    ".tar.xz": untar_xz,
}
