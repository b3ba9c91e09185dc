"""Bucket today's delivery stops into 500 m map tiles around the depot (one map extract per tile)."""
import argparse
import logging
import math
from collections import defaultdict

log = logging.getLogger("bucket_stops")

DEPOT = (52.5200, 13.4050)  # lat, lon
TILE_M = 500.0
EARTH_RADIUS_M = 6_371_000.0

# stop id, lat, lon, parcels (from the dispatcher's morning export)
STOPS = """
S-101  52.52310  13.41120  3
S-102  52.52150  13.40280  1
S-103  52.51880  13.41560  2
S-104  52.52620  13.39870  4
S-105  52.51540  13.40110  1
"""


def parse_stops(text):
    stops = []
    for line in text.strip().splitlines():
        sid, lat, lon, parcels = line.split()
        stops.append({"id": sid, "lat": float(lat), "lon": float(lon), "parcels": int(parcels)})
    return stops


def to_local_m(lat, lon, origin=DEPOT):
    """Equirectangular projection: metres east (x) and north (y) of the depot."""
    lat0, lon0 = map(math.radians, origin)
    x = (math.radians(lon) - lon0) * math.cos(lat0) * EARTH_RADIUS_M
    y = (math.radians(lat) - lat0) * EARTH_RADIUS_M
    return x, y


def tile_of(x, y):
    return int(x / TILE_M), int(y / TILE_M)


def tile_bbox(tile):
    tx, ty = tile
    return tx * TILE_M, ty * TILE_M, (tx + 1) * TILE_M, (ty + 1) * TILE_M


def bucket(stops):
    tiles = defaultdict(list)
    for stop in stops:
        x, y = to_local_m(stop["lat"], stop["lon"])
        tile = tile_of(x, y)
        x0, y0, x1, y1 = tile_bbox(tile)
        # the driver app drops any point outside its extract's bbox: refuse to publish such a tile
        if not (x0 <= x < x1 and y0 <= y < y1):
            raise ValueError(f"stop {stop['id']} at ({x:.0f}, {y:.0f}) m lies outside tile {tile}")
        tiles[tile].append(stop)
    return tiles


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--min-parcels", type=int, default=1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    stops = [s for s in parse_stops(STOPS) if s["parcels"] >= args.min_parcels]
    tiles = bucket(stops)
    for tile, members in sorted(tiles.items()):
        parcels = sum(s["parcels"] for s in members)
        print(f"tile {tile}: {len(members)} stop(s), {parcels} parcel(s): {', '.join(s['id'] for s in members)}")
    log.info("%d stops in %d tiles", len(stops), len(tiles))


if __name__ == "__main__":
    main()
