from dataclasses import dataclass


@dataclass
class Host:
    name: str
    retired: bool = False


def prune_retired(hosts):
    for host in hosts:
        if host.retired:
            hosts.remove(host)
    return hosts


wave = prune_retired([Host("web-03", True), Host("web-04", True)])
for host in wave:
    if host.retired:
        raise RuntimeError(f"{host.name} is retired but still in the rotation")
