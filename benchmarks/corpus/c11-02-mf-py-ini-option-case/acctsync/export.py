"""Reading the HR system's CSV export."""
import csv
import io

HR_EXPORT = """UserID,GivenName,Surname,Email,Dept
u1001,Ana,Silva,ana.silva@example.org,410
u1002,Jonas,Berg,jonas.berg@example.org,410
u1003,Mei,Tanaka,mei.tanaka@example.org,220
"""


def read_export(text=HR_EXPORT):
    reader = csv.DictReader(io.StringIO(text))
    return reader.fieldnames, list(reader)
