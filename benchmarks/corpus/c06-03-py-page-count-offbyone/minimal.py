def page_header(page):
    first, last = page[0]["ts"], page[-1]["ts"]
    return first, last


events, page_size = [{"ts": 0}] * 60, 30
n_pages = len(events) // page_size + 1
for i in range(n_pages):
    page_header(events[i * page_size:(i + 1) * page_size])
