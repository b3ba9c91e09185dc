import threading
from concurrent.futures import ThreadPoolExecutor


def heartbeat(stop, interval):
    while not stop.wait(interval):
        pass


stop = threading.Event()
with ThreadPoolExecutor(max_workers=2) as pool:
    pool.submit(heartbeat, stop, 0.5)
stop.set()
