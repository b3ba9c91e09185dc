"""Which items need reordering? Reads the supplier portal's stock export (Excel "CSV UTF-8")."""
import csv
import io
import logging
from dataclasses import dataclass

log = logging.getLogger("reorder")

# the export as downloaded from the portal (Excel writes a byte-order mark and CRLF line ends)
EXPORT = (b"\xef\xbb\xbfsku,description,on_hand,reorder_at,pack_size\r\n"
          b"BLT-M8-40,Hex bolt M8x40,120,200,50\r\n"
          b"NUT-M8,Hex nut M8,900,400,100\r\n"
          b"WSH-8,Washer 8mm,310,300,250\r\n"
          b"ANC-10,\"Anchor, 10mm nylon\",45,60,20\r\n")


@dataclass
class StockItem:
    sku: str
    description: str
    on_hand: int
    reorder_at: int
    pack_size: int

    def order_quantity(self):
        """Whole packs that bring the stock back above the reorder point."""
        short = self.reorder_at - self.on_hand
        if short <= 0:
            return 0
        packs = -(-short // self.pack_size)
        return packs * self.pack_size


def parse_row(row):
    sku = row["sku"].strip()
    return StockItem(sku, row["description"], int(row["on_hand"]), int(row["reorder_at"]),
                     int(row["pack_size"]))


def read_export(data):
    text = data.decode("utf-8")
    return [parse_row(row) for row in csv.DictReader(io.StringIO(text, newline=""))]


def main():
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    items = read_export(EXPORT)
    log.info("%d items in the export", len(items))
    orders = [(item, item.order_quantity()) for item in items]
    orders = [(item, qty) for item, qty in orders if qty]
    for item, qty in orders:
        print(f"{item.sku:<10} {item.description:<22} order {qty:>4}")
    print(f"{len(orders)} of {len(items)} items to reorder")


if __name__ == "__main__":
    main()
