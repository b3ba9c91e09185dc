from dateutil.parser import parse
parse("File Creation Time: 0513201421:33", fuzzy=True)
