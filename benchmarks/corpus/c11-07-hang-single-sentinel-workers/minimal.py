import queue
import threading

STOP = None


def worker(jobs):
    while True:
        job = jobs.get()
        if job is STOP:
            return


jobs = queue.Queue()
workers = [threading.Thread(target=worker, args=(jobs,)) for i in range(2)]
for w in workers:
    w.start()
jobs.put(STOP)
for w in workers:
    w.join()
