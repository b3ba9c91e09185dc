from concurrent.futures import ThreadPoolExecutor

pool = ThreadPoolExecutor(max_workers=1)


def index_document(text):
    return pool.submit(len, text).result()


pool.submit(index_document, "a").result()
