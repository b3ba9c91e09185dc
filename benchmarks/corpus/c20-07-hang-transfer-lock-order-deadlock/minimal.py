import threading
import time


class Wallet:
    def __init__(self):
        self.lock = threading.Lock()


def transfer(src, dst):
    with src.lock:  # each transfer locks its source first, then its destination
        time.sleep(0.02)
        with dst.lock:
            pass


a, b = Wallet(), Wallet()
threads = [threading.Thread(target=transfer, args=(a, b)), threading.Thread(target=transfer, args=(b, a))]
for t in threads:
    t.start()
for t in threads:
    t.join()
