import multiprocessing as mp
import threading


def monitor(stop):
    while not stop.is_set():
        stop.wait(0.05)


stop = threading.Event()
sampler = mp.Process(target=monitor, args=(stop,))
sampler.start()
stop.set()
sampler.join()
