import threading


class MetricsLogger:
    def __init__(self):
        self._lock = threading.Lock()

    def log(self):
        with self._lock:
            self.flush()

    def flush(self):
        with self._lock:
            pass


MetricsLogger().log()
