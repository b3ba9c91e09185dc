import asyncio


async def fetch(currency):
    await asyncio.sleep(0.01)
    return 0.93


async def main():
    future = asyncio.run_coroutine_threadsafe(fetch("USD"), asyncio.get_running_loop())
    future.result()


asyncio.run(main())
