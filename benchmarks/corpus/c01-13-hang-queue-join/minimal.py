import queue
import threading

todo = queue.Queue()
todo.put(b"corrupt")


def work():
    while True:
        item = todo.get()
        if item == b"corrupt":
            continue
        todo.task_done()


threading.Thread(target=work, daemon=True).start()
todo.join()
