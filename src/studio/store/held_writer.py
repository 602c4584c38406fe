"""The write connection a thread holds inside ``Database.holding_writer``, so that a run's
write transactions (one a node) begin on it instead of each checking one out of the pool."""

import threading

from sqlalchemy import Connection, Engine


class HeldWriter(threading.local):
    """Per thread: the connection taken at the outermost holding block's start and closed
    back into the pool at its end, or as soon as a write on it fails (the block's later
    writes then go through the pool)."""

    def __init__(self) -> None:
        self.holders = 0
        self.connection: Connection | None = None

    def hold(self, source: Engine) -> None:
        """Enter a holding block; the outermost one takes a connection from ``source``."""
        if self.holders == 0:
            self.connection = source.connect()
        self.holders += 1

    def release(self) -> None:
        """Leave a holding block; the outermost one gives the connection back."""
        self.holders -= 1
        if self.holders == 0:
            self.let_go()

    def free(self) -> Connection | None:
        """The held connection, if there is one and no transaction is open on it."""
        connection = self.connection
        return None if connection is None or connection.in_transaction() else connection

    def __enter__(self) -> None:
        """A transaction on the held connection begins (``with held_writer:``)."""

    def __exit__(self, failure_type: type[BaseException] | None, *_failure: object) -> None:
        """Whatever broke the transaction, the pool takes over from here."""
        if failure_type is not None:
            self.let_go()

    def let_go(self) -> None:
        connection, self.connection = self.connection, None
        if connection is not None:
            connection.close()
