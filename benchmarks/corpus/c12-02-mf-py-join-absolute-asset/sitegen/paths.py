import os


def page_output(out_dir, source, pretty_urls=True):
    stem, _ = os.path.splitext(source)
    if stem == "index" or not pretty_urls:
        return os.path.join(out_dir, stem + ".html")
    return os.path.join(out_dir, stem, "index.html")


def resolve_output(out_dir, rel):
    """Where an asset goes in the build; nothing may be written outside the output directory."""
    target = os.path.join(out_dir, rel)
    root = os.path.abspath(out_dir)
    if os.path.commonpath([root, os.path.abspath(target)]) != root:
        raise ValueError(f"asset {rel!r} escapes the output directory {out_dir!r}")
    return target
