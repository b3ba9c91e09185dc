def ticket_line(t, width=40):
    title = t.title if len(t.title) <= width else t.title[: width - 1] + "…"
    prio = f"P{t.priority}" if t.priority is not None else "P?"
    return f"{t.key:<8} {prio:<3} {t.opened}  {title:<{width}}  {t.assignee or '-'}"


def report(ordered, load):
    lines = ["TRIAGE", "=" * 72]
    lines += [ticket_line(t) for t in ordered]
    lines += ["", "workload: " + ", ".join(f"{who}={n}" for who, n in load.most_common())]
    return "\n".join(lines)
