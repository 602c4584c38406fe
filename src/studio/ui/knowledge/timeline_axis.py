"""Where a timeline puts its ticks and its date labels.

Landing moments closer together than a few pixels share one tick (a cluster), so thousands of
landings in one afternoon draw as one thick tick rather than a smear. Date labels step through
the calendar (minutes, hours, days, weeks, months, years), choosing the smallest step whose
labels, at the widest, still leave a gap between neighbours. Label moments are local clock
times (naive datetimes), as a person reads them.
"""

from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

MINUTE, HOUR, DAY, MONTH, YEAR = "minute", "hour", "day", "month", "year"
_SECONDS = {MINUTE: 60.0, HOUR: 3600.0, DAY: 86400.0, MONTH: 30.44 * 86400, YEAR: 365.25 * 86400}
WIDEST_SAMPLE = datetime(2026, 12, 28, 23, 58)
"""A moment whose label is about as wide as any: two-digit day and hour, a wide month name."""


@dataclass(frozen=True)
class Cluster:
    """Consecutive moments drawn as one tick: indexes ``first`` to ``last`` at ``x``."""

    first: int
    last: int
    x: float

    @property
    def count(self) -> int:
        """How many moments the tick stands for."""
        return self.last - self.first + 1


@dataclass(frozen=True)
class Step:
    """A calendar step between date labels and how its labels are written."""

    unit: str
    size: int
    format: str

    @property
    def seconds(self) -> float:
        """The step's length, roughly (months and years vary)."""
        return _SECONDS[self.unit] * self.size


_CLOCK, _DAY, _MONTH, _YEAR = "%d %b %H:%M", "%d %b", "%b %Y", "%Y"
STEPS = (
    *(Step(MINUTE, n, _CLOCK) for n in (1, 5, 15, 30)),
    *(Step(HOUR, n, _CLOCK) for n in (1, 3, 6, 12)),
    *(Step(DAY, n, _DAY) for n in (1, 2, 7)),
    *(Step(MONTH, n, _MONTH) for n in (1, 3, 6)),
    *(Step(YEAR, n, _YEAR) for n in (1, 2, 5, 10, 20, 50, 100)),
)
"""Every step, smallest first."""


def cluster_positions(xs: Sequence[float], gap: float) -> list[Cluster]:
    """Group sorted x positions: a cluster takes every position within ``gap`` of its first."""
    clusters: list[Cluster] = []
    start = 0
    for index in range(1, len(xs) + 1):
        if index == len(xs) or xs[index] - xs[start] > gap:
            clusters.append(Cluster(start, index - 1, (xs[start] + xs[index - 1]) / 2))
            start = index
    return clusters


def choose_step(
    span_seconds: float, width: float, label_width: Callable[[str], float], gap: float
) -> Step:
    """The smallest step whose widest label fits between neighbouring labels with ``gap``."""
    for step in STEPS:
        spacing = step.seconds / max(span_seconds, 1.0) * width
        if spacing >= label_width(WIDEST_SAMPLE.strftime(step.format)) + gap:
            return step
    return STEPS[-1]


def label_moments(start: datetime, end: datetime, step: Step) -> Iterator[datetime]:
    """The calendar moments from ``start`` to ``end`` (naive, local) on the step's boundaries."""
    moment = _floor(start, step)
    while moment <= end:
        if moment >= start:
            yield moment
        moment = _advance(moment, step)


def _floor(moment: datetime, step: Step) -> datetime:
    """The step boundary at or before ``moment``."""
    midnight = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    if step.unit == MINUTE:
        return midnight.replace(hour=moment.hour, minute=moment.minute - moment.minute % step.size)
    if step.unit == HOUR:
        return midnight.replace(hour=moment.hour - moment.hour % step.size)
    if step.unit == DAY:
        back = moment.weekday() if step.size == 7 else midnight.toordinal() % step.size
        return midnight - timedelta(days=back)
    if step.unit == MONTH:
        return midnight.replace(day=1, month=moment.month - (moment.month - 1) % step.size)
    return midnight.replace(day=1, month=1, year=max(1, moment.year - moment.year % step.size))


def _advance(moment: datetime, step: Step) -> datetime:
    """The next step boundary after ``moment`` (itself on a boundary)."""
    if step.unit in (MINUTE, HOUR, DAY):
        return moment + timedelta(seconds=step.seconds)
    if step.unit == MONTH:
        months = moment.month - 1 + step.size
        return moment.replace(year=moment.year + months // 12, month=months % 12 + 1)
    return moment.replace(year=moment.year + step.size)


@dataclass(frozen=True)
class Scale:
    """Moments, as sorted POSIX timestamps, laid out in time between two x positions; all of
    them in the middle when they are one instant."""

    stamps: tuple[float, ...] = ()
    left: float = 0.0
    right: float = 1.0

    @property
    def span(self) -> float:
        """Seconds from the first moment to the last."""
        return self.stamps[-1] - self.stamps[0] if self.stamps else 0.0

    def x_of_stamp(self, stamp: float) -> float:
        """Where a timestamp falls."""
        if self.span <= 0:
            return (self.left + self.right) / 2
        return self.left + (stamp - self.stamps[0]) / self.span * (self.right - self.left)

    def x_of(self, index: int) -> float:
        """Where a moment is."""
        return self.x_of_stamp(self.stamps[index])

    def index_at(self, x: float) -> int:
        """The moment nearest in time to a position (-1 when there are none)."""
        if len(self.stamps) <= 1:
            return len(self.stamps) - 1
        when = self.stamps[0] + (x - self.left) / max(self.right - self.left, 1.0) * self.span
        after = bisect_left(self.stamps, when)
        near = [i for i in (after - 1, after) if 0 <= i < len(self.stamps)]
        return min(near, key=lambda i: abs(self.stamps[i] - when))

    def clusters(self, gap: float) -> list[Cluster]:
        """The moments grouped into ticks at least ``gap`` apart."""
        return cluster_positions([self.x_of(i) for i in range(len(self.stamps))], gap)
