import queue

batches = queue.Queue()
batches.get()
