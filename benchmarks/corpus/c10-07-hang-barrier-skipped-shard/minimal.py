import threading

shards = [["red kettle"], []]
swap_barrier = threading.Barrier(len(shards))
threads = []
for docs in shards:
    if not docs:
        continue
    t = threading.Thread(target=swap_barrier.wait)
    t.start()
    threads.append(t)
for t in threads:
    t.join()
