import threading

cond = threading.Condition()
with cond:
    cond.notify_all()
with cond:
    cond.wait()
