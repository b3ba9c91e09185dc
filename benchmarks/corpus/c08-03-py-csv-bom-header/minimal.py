import csv
import io

EXPORT = b"\xef\xbb\xbfsku,on_hand\r\nNUT-M8,900\r\n"


def parse_row(row):
    sku = row["sku"].strip()
    return sku


def read_export(data):
    text = data.decode("utf-8")
    return [parse_row(row) for row in csv.DictReader(io.StringIO(text, newline=""))]


read_export(EXPORT)
