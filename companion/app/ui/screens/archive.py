"""Every finished game in one file, from History, and such a file back (storage/archive.py).

The file is for keeping or for another device; importing it again adds only the games missing
here. The import also takes a single game file, as Home's does.
"""

from __future__ import annotations

import json
from datetime import datetime

import flet as ft

from companion.rules import decode_json
from storage.archive import is_archive

from ..port import AppPort
from ..widgets.common import button, muted


def archive_row(app: AppPort) -> ft.Control:
    tr = app.tr
    return ft.Column(
        [
            ft.Row(
                [
                    button(
                        tr("archive.export"),
                        lambda e: app.run_later(export_all, app),
                        icon=ft.Icons.ARCHIVE,
                        style="outlined",
                        identifier="history-export-all",
                    ),
                    button(
                        tr("archive.import"),
                        lambda e: app.run_later(import_file, app),
                        icon=ft.Icons.UNARCHIVE,
                        style="text",
                        identifier="history-import-all",
                    ),
                ],
                wrap=True,
                spacing=10,
                run_spacing=10,
            ),
            muted(tr("archive.hint"), 12),
        ],
        spacing=4,
        tight=True,
    )


async def export_all(app: AppPort) -> None:
    tr = app.tr
    try:
        data = await app.services.tables.export_finished()
    except Exception as error:
        app.toast(tr("archive.export_failed", problem=getattr(error, "message", None) or str(error)))
        return
    raw = json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8")
    name = f"dyo-finished-games-{datetime.now().strftime('%Y%m%d-%H%M')}.json"
    try:
        await app.file_picker().save_file(
            dialog_title=tr("archive.export"), file_name=name, src_bytes=raw, allowed_extensions=["json"]
        )
    except Exception as error:  # no dialog available (desktop without zenity)
        app.toast(tr("archive.export_failed", problem=str(error)))


async def import_file(app: AppPort) -> None:
    files = await app.file_picker().pick_files(
        dialog_title=app.tr("archive.import"), allowed_extensions=["json"], with_data=True
    )
    if files:
        await import_bytes(app, files[0].bytes or b"")


async def import_bytes(app: AppPort, raw: bytes) -> None:
    """An archive's games, or a single game file (then its table opens), each stored as new."""
    tr = app.tr
    try:
        data = decode_json(raw)
        if not is_archive(data):
            game_id = await app.services.tables.import_game(data)
            app.toast(tr("ui.imported"))
            app.go(f"/game/{game_id}")
            return
        done = await app.services.tables.import_archive(data)
    except Exception as error:  # a bad file is the user's to fix: say what is wrong
        app.toast(tr("archive.failed", problem=getattr(error, "message", None) or str(error)))
        return
    app.toast(tr("archive.imported", count=len(done.games), skipped=done.skipped))
    app.show(app.route)  # the lists again, with the games imported
