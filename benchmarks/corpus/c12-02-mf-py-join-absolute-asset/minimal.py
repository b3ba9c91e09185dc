import os

out_dir, rel = "public", "/css/site.css"
target = os.path.join(out_dir, rel)
root = os.path.abspath(out_dir)
if os.path.commonpath([root, os.path.abspath(target)]) != root:
    raise ValueError(f"asset {rel!r} escapes the output directory {out_dir!r}")
