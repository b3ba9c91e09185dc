"""Plan the edge agent's upgrade: pick the newest stable release and the build for this fleet's platform."""
import argparse
import json
import logging

log = logging.getLogger("plan_agent_upgrade")

# the release index as the update server serves it (the real job fetches /agent/releases.json)
RELEASES_JSON = """
[
  {"version": "1.8.7", "channel": "stable", "date": "2025-11-02",
   "assets": {"linux-x86_64": "a81f0c", "windows-x86_64": "77d2e1"}},
  {"version": "1.9.4", "channel": "stable", "date": "2026-02-17",
   "assets": {"linux-x86_64": "c03b9a", "windows-x86_64": "5e6f10"}},
  {"version": "1.10.0-rc1", "channel": "beta", "date": "2026-04-01",
   "assets": {"linux-x86_64": "0d94aa", "linux-aarch64": "e2c871"}},
  {"version": "1.10.1", "channel": "stable", "date": "2026-05-12",
   "assets": {"linux-x86_64": "9b1c44", "linux-aarch64": "41fe07", "windows-x86_64": "f0a3d2"}},
  {"version": "1.10.2", "channel": "stable", "date": "2026-06-30",
   "assets": {"linux-x86_64": "ce77b0", "linux-aarch64": "8a5d19", "windows-x86_64": "2b90e6"}}
]
"""

DOWNLOAD_URL = "https://updates.example.net/agent/{version}/agent-{platform}.tar.gz"


def load_releases(text, channel):
    releases = json.loads(text)
    chosen = [r for r in releases if r["channel"] == channel]
    log.info("%d %s releases of %d in the index", len(chosen), channel, len(releases))
    return chosen


def newest(releases):
    return max(releases, key=lambda r: r["version"])


def pick_asset(release, platform):
    digest = release["assets"].get(platform)
    if digest is None:
        raise LookupError(f"release {release['version']} has no {platform} build")
    return DOWNLOAD_URL.format(version=release["version"], platform=platform), digest


def plan(installed, release, platform):
    if release["version"] == installed:
        return None
    url, digest = pick_asset(release, platform)
    return {"from": installed, "to": release["version"], "url": url, "sha256_prefix": digest,
            "released": release["date"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--platform", default="linux-aarch64")
    parser.add_argument("--channel", default="stable", choices=("stable", "beta"))
    parser.add_argument("--installed", default="1.10.1", help="the version the fleet runs now")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    release = newest(load_releases(RELEASES_JSON, args.channel))
    step = plan(args.installed, release, args.platform)
    if step is None:
        log.info("fleet is on the newest %s release (%s)", args.channel, args.installed)
        return
    print(json.dumps(step, indent=2))


if __name__ == "__main__":
    main()
