"""No full garbage collections while a run is drawn live.

A full (oldest-generation) collection walks every object the app holds and takes tens of
milliseconds once a large workflow is open: a visible stutter in a canvas that repaints as
nodes finish. While any run is live the oldest generation's threshold is raised out of
reach; when the last run ends the usual threshold comes back and the next full collection
happens while the person is reading the result."""

import gc

UNREACHABLE = 1_000_000_000


class CollectorPause:
    """Counts live runs; full collections wait while there is at least one."""

    def __init__(self) -> None:
        self.holders: set[str] = set()
        self.usual: tuple[int, int, int] | None = None

    def hold(self, key: str) -> None:
        """A run went live."""
        if not self.holders:
            self.usual = gc.get_threshold()
            young, middle, _oldest = self.usual
            gc.set_threshold(young, middle, UNREACHABLE)
        self.holders.add(key)

    def release(self, key: str) -> None:
        """A run ended."""
        self.holders.discard(key)
        if not self.holders and self.usual is not None:
            gc.set_threshold(*self.usual)
            self.usual = None
