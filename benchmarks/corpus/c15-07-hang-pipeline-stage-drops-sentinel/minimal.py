import queue
import threading

STOP = object()


def enrich_stage(in_q, out_q):
    while True:
        rec = in_q.get()
        if rec is STOP:
            break
        out_q.put(rec)


def collect(in_q):
    while True:
        rec = in_q.get()
        if rec is STOP:
            return


parsed_q, enriched_q = queue.Queue(), queue.Queue()
threading.Thread(target=enrich_stage, args=(parsed_q, enriched_q)).start()
parsed_q.put(STOP)
collect(enriched_q)
