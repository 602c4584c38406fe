"""``studio doctor``: check the database file for damage with SQLite's quick check."""

import argparse
import sys

from studio.cli.shared import EXIT_INVALID, EXIT_OK, add_db_option, fail


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register ``doctor``."""
    doctor = commands.add_parser(
        "doctor", help="check the database file for damage (exit 0 sound, 1 damaged)"
    )
    add_db_option(doctor)
    doctor.set_defaults(handler=run_doctor)


def run_doctor(args: argparse.Namespace) -> int:
    """``studio doctor``: exit 0 sound, 1 damaged, 2 when the file cannot be checked."""
    # Imported here: the other commands' start-up does not load the database layer.
    import sqlite3

    from studio.store import file_health
    from studio.store.database import sqlite_file_of
    from studio.store.storage_faults import storage_fault
    from studio.workspace import Workspace

    # Not workspace_for: reading the agents opens (and would create) the database.
    target = Workspace(database=getattr(args, "db", None)).database_target
    file = sqlite_file_of(target)
    if file is None:
        return fail(f"studio doctor checks SQLite files; {target} is not one")
    if not file.is_file():
        return fail(f"cannot check the database {file}: there is no such file")
    dead = file_health.dead_markers(file)
    try:
        report = file_health.quick_check(file)
    except sqlite3.Error as failure:
        fault = storage_fault(failure, str(file), file, "check")
        return fail(str(fault) if fault else f"cannot check the database {file}: {failure}")
    unclean = f"; {len(dead)} process(es) stopped without closing it" if dead else ""
    if report.ok:
        file_health.record_sound(file, dead)
        print(
            f"{file}: sound: quick_check found no problem in its {report.objects} tables and "
            f"indexes ({report.size:,} bytes){unclean}"
        )
        return EXIT_OK
    file_health.record_damage(file, report.summary())
    for problem in report.problems:
        print(f"{file}: {problem}")
    print(
        f"studio: the database {file} is damaged: quick_check found {len(report.problems)} "
        f"problem(s){unclean}. Studio will not use it; restore a backup, or recover what is "
        f"readable with `sqlite3 {file} .recover`",
        file=sys.stderr,
    )
    return EXIT_INVALID
