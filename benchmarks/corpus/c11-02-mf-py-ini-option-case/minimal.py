import configparser


def to_entry(row, columns, shell):
    entry = {"loginShell": shell}
    for header, value in row.items():
        attribute = columns[header]
        entry[attribute] = value.strip()
    return entry


text = "[columns]\nUserID = uid\n"
parser = configparser.ConfigParser(interpolation=None)
parser.read_string(text)
to_entry({"UserID": "u1001"}, dict(parser["columns"]), "/bin/bash")
