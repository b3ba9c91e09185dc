"""Stage 3, *reduce*: shrink a failing script while the same failure persists.

:mod:`~reportkit.reduce.minimize` is the glue; :mod:`~reportkit.reduce.schedule` runs the passes
(:mod:`reportkit.reduce.passes`) on the candidate tester with picire's ddmin (:mod:`~reportkit.reduce.dd`).
"""
