ENCODING = "utf-8"
raw = "Buchungstag;Empfänger;Betrag\r\n".encode("cp1252")
text = raw.decode(ENCODING)
