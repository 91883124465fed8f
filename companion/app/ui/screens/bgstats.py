"""Log in BG Stats: a finished game's button (win screen, History) and what it opens.

On a phone or tablet the play goes to BG Stats by its push link (services/bgstats.py), which the
device opens in the app. Elsewhere (a laptop) the same link is a QR code for the phone that has
BG Stats, and the play is also a file in BG Stats' JSON format to download.
"""

from __future__ import annotations

import json

import flet as ft

from ...services.bgstats import Play, file_name, play_file, push_link, read_play
from ..port import AppPort
from ..widgets.common import button, heading, icon_button, muted

OPENS_BGSTATS = frozenset({ft.PagePlatform.ANDROID, ft.PagePlatform.IOS})  # where BG Stats runs


def bgstats_button(app: AppPort, game_id: str, identifier: str, title: str | None = None) -> ft.Control:
    """The button (an icon in a list of games, whose `title` names the game in its label)."""
    tr = app.tr

    def tapped(e: object) -> None:
        app.run_later(open_bgstats, app, game_id)

    if title is not None:
        return icon_button(ft.Icons.LEADERBOARD, tr("bgstats.log_named", game=title), tapped, identifier=identifier)
    return button(tr("bgstats.log"), tapped, icon=ft.Icons.LEADERBOARD, style="outlined", identifier=identifier)


async def open_bgstats(app: AppPort, game_id: str) -> None:
    """Read the play off the loop, then offer its link (or QR code) and its file."""
    tr = app.tr
    try:
        play = await app.services.tables.read(game_id, read_play, app.store, game_id, tr.lang)
    except Exception as error:  # not finished, gone, or the store: say which
        app.toast(tr("bgstats.failed", problem=getattr(error, "message", None) or str(error)))
        return
    app.page.show_dialog(bgstats_dialog(app, play))


def bgstats_dialog(app: AppPort, play: Play) -> ft.AlertDialog:
    tr = app.tr
    rows: list[ft.Control] = [muted(tr("bgstats.intro"), 14)]
    if app.page.platform in OPENS_BGSTATS:
        url = ft.Url(push_link(play, tr.lang, scheme=True))
        opener = ft.FilledButton(content=tr("bgstats.open"), icon=ft.Icons.OPEN_IN_NEW, url=url)
        rows.append(ft.Semantics(identifier="bgstats-open", content=opener))
    else:
        code = ft.Container(qr_image(push_link(play, tr.lang)), bgcolor=ft.Colors.WHITE, padding=8, width=276)
        rows += [muted(tr("bgstats.scan"), 13), ft.Semantics(identifier="bgstats-qr", content=code)]
    rows += [muted(tr("bgstats.file_hint"), 13), _file_button(app, play)]
    return ft.AlertDialog(
        modal=False,
        rtl=tr.rtl,
        title=heading(tr("bgstats.title"), 19),
        content=ft.Column(rows, tight=True, spacing=10, scroll=ft.ScrollMode.AUTO, width=420),
        actions=[button(tr("ui.ok"), lambda e: app.page.pop_dialog(), identifier="bgstats-close")],
    )


def qr_image(link: str) -> ft.Image:
    """The link as a QR code, black on the white it is laid on (an SVG: no image library)."""
    import qrcode
    import qrcode.image.svg

    svg = qrcode.make(link, image_factory=qrcode.image.svg.SvgPathImage, border=2).to_string(encoding="unicode")
    return ft.Image(src=svg, width=260, height=260)


def _file_button(app: AppPort, play: Play) -> ft.Control:
    """The file: a download from the server where it serves one (entry/web.py), else saved here."""
    tr = app.tr
    icon = ft.Icons.DOWNLOAD
    if app.services.joinable:
        access = app.services.access
        key = f"&host={access.host_key}" if access.lan else ""
        url = ft.Url(f"/api/games/{play.game_id}/bgstats.json?lang={tr.lang}{key}")
        return ft.Semantics(
            identifier="bgstats-file", content=ft.OutlinedButton(content=tr("bgstats.file"), icon=icon, url=url)
        )

    async def save() -> None:
        raw = json.dumps(play_file(play), indent=1, ensure_ascii=False).encode("utf-8")
        try:
            await app.file_picker().save_file(file_name=file_name(play), src_bytes=raw, allowed_extensions=["json"])
        except Exception as error:  # no dialog available: say so
            app.toast(tr("bgstats.failed", problem=str(error)))

    return button(
        tr("bgstats.file"), lambda e: app.run_later(save), icon=icon, style="outlined", identifier="bgstats-file"
    )
