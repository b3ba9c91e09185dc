"""Stage 1, *run*: start the target in a separate, sandboxed process and collect what it did.

The runner and its scratch copies, the sandbox (bubblewrap, fallback guard), the executors (cold, warm
fork server, Ray), the boot scripts that run inside the target's interpreter, the hang watch's stack
sampling, and git facts. Nothing here judges a run: that is :mod:`reportkit.failure`.
"""
