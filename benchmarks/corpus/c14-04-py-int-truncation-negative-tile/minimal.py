import math

TILE_M = 500.0


def tile_of(x, y):
    return int(x / TILE_M), int(y / TILE_M)


stop, x, y = {"id": "S-102"}, -149.0, 167.0
tile = tile_of(x, y)
tx, ty = tile
x0, y0, x1, y1 = tx * TILE_M, ty * TILE_M, (tx + 1) * TILE_M, (ty + 1) * TILE_M
if not (x0 <= x < x1 and y0 <= y < y1):
    raise ValueError(f"stop {stop['id']} at ({x:.0f}, {y:.0f}) m lies outside tile {tile}")
