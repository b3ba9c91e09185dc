import threading

lock = threading.Lock()
stop = threading.Event()


def run():
    stop.wait()
    with lock:
        pass


t = threading.Thread(target=run, daemon=True)
t.start()
with lock:
    stop.set()
    t.join()
