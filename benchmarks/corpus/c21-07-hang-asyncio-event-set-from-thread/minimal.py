import asyncio
import threading
import time


def flash_worker(done):
    time.sleep(0.1)
    done.set()  # asyncio.Event.set from another thread: the loop, idle in select(), is never woken


async def flash_all():
    done = asyncio.Event()
    threading.Thread(target=flash_worker, args=(done,), daemon=True).start()
    await done.wait()


asyncio.run(flash_all())
