"""Print the commands that fetch the vendored dependencies listed in the lockfile (a dry run)."""

import argparse

from fetchdeps import parse_lockfile, plan_steps

LOCKFILE = """
{
  "lockfile_version": 2,
  "artifacts": [
    {"name": "zlib", "version": "1.3.1",
     "url": "https://example.org/mirror/zlib-1.3.1.zip",
     "sha256": "72af66d44fcc14c22013b46b814d5d2514673dda3d115e64b690c1ad636e7b17"},
    {"name": "fmt", "version": "10.2.1",
     "url": "https://example.org/mirror/fmt-10.2.1.tgz",
     "sha256": "1250e4cc58bf06ee631567523f48848dc4596133e163f02615c97f78bab6c811"},
    {"name": "libyaml", "version": "0.2.5",
     "url": "https://example.org/mirror/yaml-0.2.5.tar.gz?download=1",
     "sha256": "c642ae9b75fee120b2d96c712538bd2cf283228d2337df2cf2988e3c02678ef4",
     "target": "third_party/yaml"},
    {"name": "pybind11", "version": "2.12.0",
     "url": "https://example.org/mirror/pybind11-2.12.0-py3-none-any.whl",
     "sha256": "df8d60b94f9e714d81013db233393d430ebf9f3551642b82291cf1b14d1afdbd"}
  ]
}
"""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cache", default=".cache/deps")
    p.add_argument("--only", help="comma-separated artifact names")
    args = p.parse_args()

    artifacts = parse_lockfile(LOCKFILE)
    if args.only:
        wanted = set(args.only.split(","))
        artifacts = [a for a in artifacts if a["name"] in wanted]
    steps = plan_steps(artifacts, args.cache)
    print(f"# {len(artifacts)} artifact(s), {len(steps)} step(s)")
    for step in steps:
        print(step)


if __name__ == "__main__":
    main()
