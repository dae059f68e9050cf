"""Helpers of the workbench tests."""


def read_events(lines) -> list[dict]:
    """The server-sent events of a response's lines, as [{"event", ...data}]."""
    import json

    out, kind = [], None
    for line in lines:
        if line.startswith("event: "):
            kind = line[len("event: "):]
        elif line.startswith("data: "):
            out.append({"event": kind, **json.loads(line[len("data: "):])})
    return out
