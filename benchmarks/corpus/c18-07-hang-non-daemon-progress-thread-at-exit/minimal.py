import threading
import time


class ProgressReporter:
    def __init__(self):
        self.thread = threading.Thread(target=self.run, name="progress")

    def run(self):
        while True:
            time.sleep(0.5)


ProgressReporter().thread.start()
