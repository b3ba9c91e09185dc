import threading
from urllib.parse import urlparse

slots = threading.BoundedSemaphore(2)


def schedule(url):
    slots.acquire()
    parsed = urlparse(url)
    if parsed.scheme != "https":
        return None
    slots.release()


for url in ["http://legacy.example.net/", "ftp://archive.example.edu/", "https://mirror.example.org/"]:
    schedule(url)
