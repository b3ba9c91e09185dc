"""A thread-safe metrics logger used by a training loop and a background heartbeat thread."""
import json
import threading


class MetricsLogger:
    def __init__(self, flush_every=8):
        self._lock = threading.Lock()
        self._buffer = []
        self._written = []
        self.flush_every = flush_every

    def log(self, step, **values):
        with self._lock:
            self._buffer.append({"step": step, **values})
            if len(self._buffer) >= self.flush_every:
                self.flush()

    def flush(self):
        with self._lock:
            if not self._buffer:
                return
            self._written.append(json.dumps(self._buffer))
            self._buffer = []

    def summary(self):
        with self._lock:
            return {"chunks": len(self._written), "pending": len(self._buffer)}


class Heartbeat(threading.Thread):
    def __init__(self, logger, interval=0.05):
        super().__init__(daemon=True, name="heartbeat")
        self.logger = logger
        self.interval = interval
        self.stopped = threading.Event()

    def run(self):
        beat = 0
        while not self.stopped.wait(self.interval):
            beat += 1
            print(f"[heartbeat] {beat}: {self.logger.summary()}", flush=True)


def train(logger, steps=20):
    loss = 2.0
    for step in range(steps):
        loss *= 0.93
        logger.log(step, loss=round(loss, 4), lr=0.01)
    return loss


def main():
    logger = MetricsLogger()
    beat = Heartbeat(logger)
    beat.start()
    final = train(logger)
    beat.stopped.set()
    logger.flush()
    print("final loss", final, logger.summary())


if __name__ == "__main__":
    main()
