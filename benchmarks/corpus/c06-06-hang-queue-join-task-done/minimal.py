import queue
import threading


class Pool:
    def __init__(self):
        self.tasks = queue.Queue()

    def work(self):
        while True:
            name = self.tasks.get()
            if not name:
                continue
            self.tasks.task_done()

    def run(self, names):
        threading.Thread(target=self.work, daemon=True).start()
        for name in names:
            self.tasks.put(name)
        self.tasks.join()


Pool().run(["a", ""])
