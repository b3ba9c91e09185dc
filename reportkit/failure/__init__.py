"""Stage 2, *failure*: what a run's failure is and when two runs fail "the same way".

:mod:`~reportkit.failure.signature` describes a failure; :mod:`~reportkit.failure.check` is the one door
through which every run of the target is made and judged (establishing the original, flakiness).
"""
