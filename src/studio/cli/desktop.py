"""``studio gui`` and ``studio screenshot``: the only commands that load Qt, lazily."""

import argparse
import gc
from pathlib import Path
from typing import TYPE_CHECKING

from studio.cli.shared import (
    EXIT_UNREADABLE,
    ArgumentProblem,
    add_agents_option,
    add_db_option,
    fail,
    workspace_for,
)

if TYPE_CHECKING:
    from datetime import datetime

    from studio.model import Workflow
    from studio.ui.screenshot import KnowledgeShot
    from studio.workspace import Workspace

MODES = ("workflows", "knowledge", "work")
"""The window's modes, as the mode bar shows them (kept here so the CLI loads no Qt)."""


def add_commands(commands: argparse._SubParsersAction) -> None:
    """Register ``gui`` and ``screenshot``."""
    gui = commands.add_parser("gui", help="open the desktop app (the default)")
    gui.add_argument("file", nargs="?", help="a workflow file (YAML or JSON) to open")
    add_mode_option(gui)
    add_agents_option(gui)
    add_db_option(gui)
    gui.set_defaults(handler=run_gui)
    shot = commands.add_parser("screenshot", help="render the app offscreen to a picture")
    shot.add_argument("out", help="the picture to write (.png, .jpg or .jpeg)")
    shot.add_argument("--open", dest="file", help="a workflow file to open first")
    shot.add_argument(
        "--view",
        default="main",
        choices=["main", "canvas", "knowledge", "work", "catalog"],
        help="what to render: the window, the workflow canvas, the Knowledge mode, the Work "
        "mode or the catalog",
    )
    shot.add_argument("--size", default="1280x800", help="window size as WIDTHxHEIGHT")
    add_mode_option(shot)
    shot.add_argument(
        "--run",
        metavar="EXECUTION",
        help="show this run (its id or first 6+ characters, or 'last') on its canvas",
    )
    shot.add_argument(
        "--replay-at",
        type=int,
        metavar="N",
        help="with --run: replay it, stopped after its Nth event",
    )
    add_knowledge_options(shot)
    add_agents_option(shot)
    add_db_option(shot)
    shot.set_defaults(handler=run_screenshot)


def add_knowledge_options(shot: argparse.ArgumentParser) -> None:
    """What ``--view knowledge`` draws."""
    group = shot.add_argument_group("with --view knowledge")
    group.add_argument("--subject", help="show this subject only")
    group.add_argument(
        "--around", metavar="NODE", help="focus on a node (its id, or a bare item id like R-SSO)"
    )
    group.add_argument("--depth", type=int, default=1, choices=[1, 2, 3], help="focus depth")
    group.add_argument("--as-of", metavar="TIME", help="the graph as it stood then (ISO time)")
    group.add_argument("--compare-to", metavar="TIME", help="mark what changed since then")
    group.add_argument("--items", action="store_true", help="show typed items")
    group.add_argument("--units", action="store_true", help="show units of work")
    group.add_argument("--sections", action="store_true", help="show sections")


def add_mode_option(parser: argparse.ArgumentParser) -> None:
    """``--mode``: which mode of the window to show (otherwise the one it was last in)."""
    parser.add_argument(
        "--mode",
        choices=MODES,
        help="show this mode of the window: workflows, knowledge or work",
    )


def hold_collector_until_drawn() -> None:
    """Turn the garbage collector off while the window is built.

    Start-up makes a few hundred thousand objects that live as long as the app and almost no
    garbage (a few thousand objects); the full collections the growth sets off walk them all
    again and again, about 0.25 s before the first frame. The window turns the collector back
    on once it is drawn (``studio.ui.app.collect_after_first_paint``), a picture once taken."""
    gc.disable()


def load_window_modules_before_qt() -> None:
    """What the window needs that does not need Qt, loaded before Qt is: each module
    imported after Qt costs about a third more (``studio.ui.before_qt``)."""
    from studio.ui.before_qt import load_window_modules_before_qt as load

    load()


def run_gui(args: argparse.Namespace) -> int:
    """``studio`` / ``studio gui``: open the desktop app, or say why it cannot."""
    hold_collector_until_drawn()
    from studio.ui.display import missing_display_reason

    reason = missing_display_reason()
    if reason:
        return fail(f"cannot open the window: {reason}")
    load_window_modules_before_qt()
    from studio.ui.app import run_app

    return run_app(workspace_for(args), args.file, args.mode)


def run_screenshot(args: argparse.Namespace) -> int:
    """``studio screenshot``: render the app offscreen to a picture. Whatever the app would
    ask about in a dialog (a file it cannot open, a run that is not there) is refused here
    with one line on stderr and exit 2: nothing waits for a click."""
    hold_collector_until_drawn()
    from studio.ui.screenshot import parse_size, picture_format, render_screenshot

    try:
        size = parse_size(args.size)
        picture_format(args.out)
    except ValueError as failure:
        return fail(str(failure), EXIT_UNREADABLE)
    if args.replay_at is not None and args.run is None:
        return fail("--replay-at replays a run: name it with --run ID (or --run last)")
    workflow = None
    if args.file is not None:
        workflow, problem = read_workflow_file(args.file)
        if problem is not None:
            return fail(problem)
    load_window_modules_before_qt()
    workspace = workspace_for(args)
    try:
        shot = knowledge_shot(args)
    except ArgumentProblem as problem:
        return fail(str(problem), EXIT_UNREADABLE)
    return render_screenshot(
        workspace,
        Path(args.out),
        size,
        args.file,
        args.view,
        chosen_run(workspace, args.run),
        args.replay_at,
        args.mode,
        shot,
        workflow,
    )


def read_workflow_file(file: str) -> tuple["Workflow | None", str | None]:
    """The workflow in ``file``, or why the app could not open it (what its dialog would
    say). Read once: the window opens what was read here."""
    from studio.model import DefinitionError, WorkflowFileError, load_workflow

    try:
        return load_workflow(file), None
    except WorkflowFileError as failure:
        return None, f"cannot open {failure}"
    except DefinitionError as failure:
        return None, f"cannot open {file}: {failure}"


def chosen_run(workspace: "Workspace", run: str | None) -> str | None:
    """The execution ``--run`` names: an id, a unique prefix of one, or ``last``;
    ArgumentProblem when there is no such run."""
    if run is None:
        return None
    if run == "last":
        latest = workspace.executions.find(limit=1)
        if not latest:
            raise ArgumentProblem("--run last: there are no runs in this database")
        return latest[0].execution_id
    from studio.cli.ids import resolve_execution

    return resolve_execution(workspace, run)


def knowledge_shot(args: argparse.Namespace) -> "KnowledgeShot":
    """The ``--view knowledge`` options; ArgumentProblem for a time that is not one."""
    from studio.ui.screenshot import KnowledgeShot

    return KnowledgeShot(
        subject=args.subject,
        around=args.around,
        depth=args.depth,
        as_of=moment(args.as_of),
        compare_to=moment(args.compare_to),
        items=args.items,
        units=args.units,
        sections=args.sections,
    )


def moment(text: str | None) -> "datetime | None":
    """The time ``--as-of`` or ``--compare-to`` names, if given; ArgumentProblem for one that
    is not a time. (The knowledge commands are loaded only when a time is given: they bring
    the knowledge store, which a picture of the window does not need before it is drawn.)"""
    if text is None:
        return None
    from studio.cli.knowledge_handlers import parse_moment

    return parse_moment(text)
