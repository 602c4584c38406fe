"""Commands that need the store answer later: each returns a Future that the UI thread
resolves once what the command did shows (a tab opened, a run drawn, a message given), so a
caller or a test can wait for it without the window ever waiting on SQLite.

    def open(self, workflow_id: str) -> Future[WorkflowTab | None]:
        return after_store(self.store, lambda: repository.get(workflow_id), self.show, failed)

A step that opens a modal dialog runs from the event loop on its own, not inside the
delivery of store answers, so the dialog never holds the answers after it back."""

from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox

from studio.model.errors import StudioError
from studio.store.errors import StorageFaultError
from studio.ui.store_calls import StoreCalls
from studio.ui.window.status_sink import StatusSink

T = TypeVar("T")
U = TypeVar("U")
NOTHING_CHANGED = "Nothing was changed: the workflows are as they were before."


def answered(value: T) -> "Future[T]":
    """A command that needed no store work: its answer, already there."""
    future: Future[T] = Future()
    future.set_result(value)
    return future


def after_store(
    store: StoreCalls,
    work: Callable[[], T],
    show: Callable[[T], U],
    failed: Callable[[Exception], U],
    *,
    dialog: bool = False,
) -> "Future[U]":
    """Run ``work()`` on the store thread, then ``show(result)`` (or ``failed(error)``) on the
    UI thread; the returned future holds what that step returned, or what it raised.

    ``show`` runs as its answer is delivered, in order with the other store answers (a run
    drawn before the events that follow it). One that opens a modal dialog says
    ``dialog=True``, and so does every ``failed``: those run from the event loop on their
    own, as a dialog's loop inside a delivery would hold the answers after it back."""
    answer: Future[U] = Future()

    def shown(result: T) -> None:
        if dialog:
            QTimer.singleShot(0, store, lambda: _resolve(answer, show, result))
        else:
            _resolve(answer, show, result)

    def not_shown(error: Exception) -> None:
        QTimer.singleShot(0, store, lambda: _resolve(answer, failed, error))

    store.call(work, shown, not_shown)
    return answer


def then(future: "Future[T]", step: Callable[[T], U]) -> "Future[U]":
    """``step(result)`` once ``future`` (resolved on the UI thread) is done; its answer."""
    answer: Future[U] = Future()

    def go(done: "Future[T]") -> None:
        failure = done.exception()
        if failure is not None:
            answer.set_exception(failure)
        else:
            _resolve(answer, step, done.result())

    future.add_done_callback(go)
    return answer


def joined(outer: "Future[Future[T]]") -> "Future[T]":
    """The answer of a step whose own answer comes later (a confirmation, then a write)."""
    answer: Future[T] = Future()

    def copy(inner: "Future[T]") -> None:
        failure = inner.exception()
        if failure is not None:
            answer.set_exception(failure)
        else:
            answer.set_result(inner.result())

    def unwrap(done: "Future[Future[T]]") -> None:
        failure = done.exception()
        if failure is not None:
            answer.set_exception(failure)
        else:
            done.result().add_done_callback(copy)

    outer.add_done_callback(unwrap)
    return answer


def refused(status: StatusSink, title: str, failure: Exception, answer: T) -> T:
    """Tell the person why the store refused (the database's fault, or the reason given),
    then give ``answer``; an error that is neither is a defect and goes on up."""
    if isinstance(failure, StorageFaultError):
        status.fault(failure, NOTHING_CHANGED)
    elif isinstance(failure, StudioError):
        QMessageBox.warning(status.dialog_parent(), title, str(failure))
    else:
        raise failure
    return answer


def _resolve(answer: "Future[U]", step: Callable[[T], U], value: T) -> None:
    try:
        answer.set_result(step(value))
    except Exception as failure:
        answer.set_exception(failure)
        raise
