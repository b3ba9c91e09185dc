SEVERITY_ICONS = {"critical": "[!!]", "warning": "[!]", "info": "[i]"}


def format_alert(alert):
    icon = SEVERITY_ICONS.get(alert["severity"], "[?]")
    labels = ", ".join(f"{k}={v}" for k, v in sorted(alert.get("labels", {}).items()))
    return f"{icon} {alert['name']}: {alert['summary']}" + (f" ({labels})" if labels else "")
