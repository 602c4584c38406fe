"""Progress on the desktop's dock or task bar, where the platform offers it.

Linux docks and task managers (GNOME's Dash to Dock, KDE Plasma, Unity) listen for the
``com.canonical.Unity.LauncherEntry`` signal on the session bus; without a session bus this
does nothing. The window's own status bar always shows the same progress."""

from PySide6.QtCore import QCoreApplication
from PySide6.QtDBus import QDBusConnection, QDBusMessage

OBJECT_PATH = "/com/studio/launcher"
INTERFACE = "com.canonical.Unity.LauncherEntry"
DESKTOP_ID = "application://studio.desktop"


class LauncherProgress:
    """Sends the run's progress (0 to 1) to the dock, or clears it."""

    def __init__(self) -> None:
        bus = QDBusConnection.sessionBus()
        self.bus = bus if bus.isConnected() else None
        self.sent: list[dict] = []
        """What was sent, newest last (kept short; a person's dock is the real reader)."""

    @property
    def available(self) -> bool:
        """Whether there is a session bus to tell."""
        return self.bus is not None

    def show_progress(self, share: float) -> None:
        """Show a progress bar on the app's dock icon."""
        self._send({"progress": float(min(1.0, max(0.0, share))), "progress-visible": True})

    def clear(self) -> None:
        """Hide the dock icon's progress bar."""
        self._send({"progress-visible": False})

    def _send(self, properties: dict) -> None:
        self.sent = [*self.sent[-9:], properties]
        if self.bus is None or QCoreApplication.instance() is None:
            return
        message = QDBusMessage.createSignal(OBJECT_PATH, INTERFACE, "Update")
        message.setArguments([DESKTOP_ID, properties])
        self.bus.send(message)
