import dateutil
date_str = "2025-1-10,0:57:17.0,+1:0"
dateutil.parser.parse(date_str)
# >>> dateutil.parser._parser.ParserError: Unknown string format: 2025-1-10,0:57:17.0,+1:0

import dateutil
date_str = "2025-1-1,0:57:17.0,+1:0"  # Notice the date being 2025-1-1 as opposed to 2025-1-10 as in the previous example
dateutil.parser.parse(date_str)
# >>> datetime.datetime(2025, 1, 1, 0, 57, 17, tzinfo=tzoffset(None, 3600))
