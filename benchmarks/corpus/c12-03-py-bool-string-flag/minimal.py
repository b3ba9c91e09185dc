SCHEMA = {"MAINTENANCE_MODE": bool}
cfg = {"MAINTENANCE_PAGE": ""}
for key, raw in [("MAINTENANCE_MODE", "false")]:
    kind = SCHEMA.get(key)
    cfg[key] = kind(raw)
if cfg["MAINTENANCE_MODE"] and not cfg["MAINTENANCE_PAGE"]:
    raise ValueError("MAINTENANCE_MODE is on but MAINTENANCE_PAGE is empty")
