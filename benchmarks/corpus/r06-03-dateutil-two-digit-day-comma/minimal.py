from dateutil.parser import parse

parse("2025-1-10,0:57:17.0,+1:0")
