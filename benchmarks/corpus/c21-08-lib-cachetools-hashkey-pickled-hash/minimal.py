# cachetools 5.3.3's keys._HashedTuple and hashkey (cachetools/keys.py), with __getstate__ as shipped here:
# the hash cached in the instance's __dict__ is pickled with it (and is stale in another process)
import unittest


class _HashedTuple(tuple):
    __hashvalue = None

    def __hash__(self, hash=tuple.__hash__):
        hashvalue = self.__hashvalue
        if hashvalue is None:
            self.__hashvalue = hashvalue = hash(self)
        return hashvalue

    def __getstate__(self):
        return self.__dict__


def hashkey(*args, **kwargs):
    return _HashedTuple(args)


class CacheKeysTest(unittest.TestCase):
    def test_pickle(self, key=hashkey):
        import pickle

        for k in [key()]:
            self.assertEqual(len(k.__dict__), 0)
            h = hash(k)
            self.assertEqual(len(k.__dict__), 1)
            pickled = pickle.loads(pickle.dumps(k))
            self.assertEqual(len(pickled.__dict__), 0)
            self.assertEqual(h, hash(pickled))
