"""Reading a text file, or saying in a person's words why it cannot be read."""

from pathlib import Path


class UnreadableFileError(Exception):
    """A file that is missing, not a file, not allowed, binary or not UTF-8; ``reason`` says
    which, in words such as "there is no such file" or "it is a binary file, not text"."""

    def __init__(self, path: str, reason: str) -> None:
        self.path, self.reason = path, reason
        super().__init__(f"{path}: {reason}")


def read_text_file(path: str | Path) -> str:
    """The UTF-8 text of a file; UnreadableFileError says why there is none."""
    target = Path(path)
    try:
        data = target.read_bytes()
    except FileNotFoundError:
        raise UnreadableFileError(str(path), "there is no such file") from None
    except IsADirectoryError:
        raise UnreadableFileError(str(path), "it is a folder, not a file") from None
    except PermissionError:
        raise UnreadableFileError(str(path), "permission denied") from None
    except OSError as failure:
        reason = (failure.strerror or str(failure)).lower()
        raise UnreadableFileError(str(path), reason) from None
    return decode_text(str(path), data)


def decode_text(path: str, data: bytes) -> str:
    """``data`` as UTF-8 text; UnreadableFileError when it is binary (holds NUL bytes) or
    not UTF-8 (naming the first bad byte and its line)."""
    if b"\0" in data:
        raise UnreadableFileError(path, "it is a binary file, not text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as failure:
        byte, line = data[failure.start], data.count(b"\n", 0, failure.start) + 1
        reason = f"it is not UTF-8 text (byte 0x{byte:02x} on line {line})"
        raise UnreadableFileError(path, reason) from None
