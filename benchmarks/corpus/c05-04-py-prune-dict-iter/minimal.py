sessions = {"s1": 0.0, "s2": 1.0}
for sid, entry in sessions.items():
    if 45.0 - entry > 30.0:
        del sessions[sid]
