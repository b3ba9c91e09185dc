"""Export an evaluation log as fixed-size pages (one JSON file per page), then verify the export."""
import hashlib
import json
import random

PER_PAGE = 16


def make_records(n, seed=7):
    rng = random.Random(seed)
    records = []
    for i in range(n):
        loss = round(rng.uniform(0.1, 2.5), 4)
        records.append({"id": i, "split": rng.choice(["val", "test"]), "loss": loss,
                        "correct": loss < 0.9})
    return records


def page_count(total, per_page):
    if per_page <= 0:
        raise ValueError("per_page must be positive")
    return total // per_page


def paginate(records, per_page=PER_PAGE):
    pages = []
    for index in range(page_count(len(records), per_page)):
        start = index * per_page
        pages.append({"page": index, "records": records[start:start + per_page]})
    return pages


def digest(page):
    blob = json.dumps(page["records"], sort_keys=True).encode()
    return hashlib.sha1(blob).hexdigest()[:12]


def summarize(pages):
    rows = []
    for page in pages:
        recs = page["records"]
        acc = sum(r["correct"] for r in recs) / len(recs)
        rows.append((page["page"], len(recs), round(acc, 3), digest(page)))
    return rows


def verify(records, pages):
    exported = sum(len(page["records"]) for page in pages)
    ids = [r["id"] for page in pages for r in page["records"]]
    if len(ids) != len(set(ids)):
        raise ValueError("a record was exported twice")
    assert exported == len(records), f"export lost records: {exported} of {len(records)}"


def main():
    records = make_records(203)
    pages = paginate(records)
    for page, count, acc, sha in summarize(pages):
        print(f"page {page:>3}: {count:>3} records, acc {acc:.3f}, sha {sha}")
    verify(records, pages)
    print("export verified")


if __name__ == "__main__":
    main()
