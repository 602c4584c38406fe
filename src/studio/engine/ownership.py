"""Who is running an execution: an owner id per runner, and telling a dead owner from a live one."""

import os
import socket
import uuid


def new_owner_id() -> str:
    """A runner's identity: host, process id and a random tag."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def owner_is_dead(owner: str) -> bool:
    """Whether an owner is a process on this host that no longer exists."""
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return _is_zombie(pid)


def _is_zombie(pid: int) -> bool:
    """A killed child not yet reaped by its parent still answers signals; /proc tells."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False
