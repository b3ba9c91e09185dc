import queue
import threading

DONE = object()


def to_row(event):
    return (event["id"], event["actor"].lower(), event["action"], event["ts"])


def writer(q):
    while (item := q.get()) is not DONE:
        to_row(item)


q = queue.Queue(maxsize=1)
t = threading.Thread(target=writer, args=(q,))
t.start()
for i in range(3):
    q.put({"id": i, "action": "login", "ts": 0})
q.put(DONE)
t.join()
