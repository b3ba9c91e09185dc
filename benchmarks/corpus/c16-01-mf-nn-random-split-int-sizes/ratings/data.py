import torch
from torch.utils.data import Dataset

# exported from the club's rating sheet: user, movie, stars (1-5)
RATINGS_CSV = """user,movie,stars
u4,m10,5 u3,m06,5 u2,m10,1 u8,m05,5 u4,m04,5 u9,m14,5 u8,m07,3 u4,m11,3
u9,m07,1 u2,m03,1 u5,m13,1 u5,m08,4 u7,m07,5 u3,m06,2 u1,m03,5 u4,m05,4
# second meeting
u5,m07,5 u7,m10,4 u9,m10,4 u4,m06,1 u5,m10,3 u6,m09,2 u4,m11,4 u5,m02,2
u8,m14,5 u2,m06,2 u7,m03,1 u5,m07,4 u2,m01,1 u7,m12,4 u9,m05,5 u4,m01,4
u1,m02,2 u9,m01,3 u7,m05,4 u3,m12,1 u6,m06,4 u3,m14,4 u7,m08,5 u7,m11,5
u2,m10,5 u5,m07,3 u5,m07,4 u9,m05,5 u6,m01,4 u6,m01,4 u3,m01,4
"""


def load_ratings(text=RATINGS_CSV):
    rows = []
    for line in text.strip().splitlines()[1:]:
        if line.startswith("#"):
            continue
        for cell in line.split():
            user, movie, stars = cell.split(",")
            rows.append((user, movie, float(stars)))
    return rows


class RatingsDataset(Dataset):
    def __init__(self, rows):
        self.users = {u: i for i, u in enumerate(sorted({r[0] for r in rows}))}
        self.movies = {m: i for i, m in enumerate(sorted({r[1] for r in rows}))}
        self.u = torch.tensor([self.users[r[0]] for r in rows])
        self.m = torch.tensor([self.movies[r[1]] for r in rows])
        self.y = torch.tensor([r[2] for r in rows])

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.u[i], self.m[i], self.y[i]
