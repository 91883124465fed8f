"""Small accessible controls the screens are made of.

Everything tappable is a `Semantics` node with `button=True` and a label (what a screen reader
says and what the end-to-end tests click by name), and an optional stable `identifier` (the
DOM's flt-semantics-identifier). Colours come from the theme's scheme or the standee palette,
never from literal text, so dark mode and RTL work unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar
from typing import Any, TypeVar

import flet as ft

from ...vm.digits import typed_number

Handler = Callable[..., Any]

# Standee colours: (fill, text on it).
STANDEE = {
    "red": (ft.Colors.RED_600, ft.Colors.WHITE),
    "black": (ft.Colors.GREY_900, ft.Colors.WHITE),
    "yellow": (ft.Colors.AMBER_400, ft.Colors.BLACK),
    "blue": (ft.Colors.BLUE_600, ft.Colors.WHITE),
    "green": (ft.Colors.GREEN_700, ft.Colors.WHITE),
    "orange": (ft.Colors.ORANGE_700, ft.Colors.WHITE),
    "purple": (ft.Colors.PURPLE_400, ft.Colors.WHITE),
    "white": (ft.Colors.WHITE, ft.Colors.BLACK),
    "neutral": (ft.Colors.BROWN_400, ft.Colors.WHITE),
    "warden": (ft.Colors.INDIGO_900, ft.Colors.WHITE),
}
DANGER = ft.Colors.RED_700
DANGER_SOFT = ft.Colors.with_opacity(0.12, ft.Colors.RED_700)
RADIUS = 10
TOUCH = 48  # minimum touch target, in logical pixels
BUTTON_PAD = 14  # a Material button's padding above and below its one line (20 px): 48 in all
NARROW_BELOW = 720  # logical pixels: a phone, laid out in one column
WIDE_FROM = 1100  # logical pixels: a laptop, with room for three columns


def width_class(width: float) -> int:
    """0 narrow, 1 medium, 2 wide: a screen laid out by it draws again when it changes."""
    return 0 if width < NARROW_BELOW else 1 if width < WIDE_FROM else 2


def paint(color: str) -> tuple[str, str]:
    return STANDEE.get(color, STANDEE["neutral"])


# The black and the white standee, which one theme's page would swallow as a line or an edge,
# take the theme's ink (black on light, near white on dark) and outline tones there instead.
EDGE_TONES = {"black": ft.Colors.ON_SURFACE, "white": ft.Colors.OUTLINE}


def edge(color: str) -> str:
    """A standee's colour as a line or a border, readable in the light and the dark theme."""
    return EDGE_TONES.get(color) or paint(color)[0]


def ident(value: Any) -> str:
    """A value as part of a stable `identifier` (a list or tuple of values joined by "+")."""
    if isinstance(value, (list, tuple)):
        return "+".join(str(v) for v in value) or "none"
    return str(value).lower().replace(" ", "_")


def tall(content: ft.Control, padding: float) -> ft.Control:
    """`content` at least a touch target high once `padding` is added above and below (it grows
    with the text, at 200% too)."""
    return ft.Row(
        [ft.Container(width=0, height=TOUCH - 2 * padding), content],
        spacing=0,
        tight=True,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def floored(content: ft.Control, padding: Any) -> ft.Control:
    """`content` on a floor that makes it, with `padding` around it, at least a touch target in
    each direction. The floor takes the constraints the content had (`PASS_THROUGH`), so a
    content larger than it is laid out exactly as without it."""
    if isinstance(padding, ft.Padding):
        across, down = padding.left + padding.right, padding.top + padding.bottom
    else:
        across = down = 2 * float(padding or 0)
    floor = ft.Container(width=max(0.0, TOUCH - across), height=max(0.0, TOUCH - down))
    return ft.Stack([floor, content], fit=ft.StackFit.PASS_THROUGH, alignment=ft.Alignment.CENTER)


def tap(
    content: ft.Control,
    on_click: Handler | None,
    label: str,
    *,
    identifier: str | None = None,
    selected: bool | None = None,
    padding: Any = 10,
    bgcolor: Any = None,
    border: Any = None,
    radius: float = RADIUS,
    expand: Any = None,
    width: float | None = None,
    height: float | None = None,
    enabled: bool = True,
    align: Any = None,
) -> ft.Control:
    """A tappable area with exactly one accessible name (`label`) and an id for tests.

    The inner texts are excluded from the semantics tree, so the label must say everything a
    screen reader user needs (the reason an action is refused, a chip's state...). The area is
    at least a touch target wide and high (`TOUCH`), whatever its content: a smaller content
    (a colour dot, a short line) sits in the middle of it.
    """
    box = ft.Container(
        content=floored(content, padding),
        on_click=on_click,
        ink=False,
        padding=padding,
        bgcolor=bgcolor,
        border=border,
        border_radius=ft.BorderRadius.all(radius),
        expand=expand,
        width=width,
        height=height,
        alignment=align,
    )
    return ft.Semantics(
        content=box,
        label=label,
        button=True,
        identifier=identifier,
        selected=selected,
        exclude_semantics=True,
        expand=expand,
        disabled=not enabled or on_click is None,  # said to assistive technology (and tests): not tappable
    )


def icon_button(
    icon: Any,
    label: str,
    on_click: Handler | None,
    *,
    identifier: str | None = None,
    color: Any = None,
    size: int = 24,
    enabled: bool = True,
) -> ft.Control:
    """An icon with a name: the tooltip for mouse users, the semantics label for everyone else."""
    return ft.Semantics(
        label=label,
        button=True,
        identifier=identifier,
        exclude_semantics=True,
        disabled=not enabled,
        content=ft.IconButton(
            icon=icon,
            on_click=on_click if enabled else None,
            tooltip=label,
            icon_color=color,
            icon_size=size,
            disabled=not enabled,
            size_constraints=ft.BoxConstraints(min_width=TOUCH, min_height=TOUCH),
        ),
    )


def app_theme(font: str | None, touch: bool) -> ft.Theme:
    """Every screen's theme: the app's colours and font, and on a touch screen (`touch`: a
    phone's width, or a phone's or tablet's system) thumb-sized controls.

    Flutter lays a desktop browser's controls out compact (Material buttons 32 px high, the
    density it takes for a mouse), also on a phone-sized window; there the standard density and
    taller paddings make every Material button at least a touch target high, at any text size.
    A laptop keeps the compact layout, so a turn's buttons fit on its screen.
    """
    if not touch:
        return ft.Theme(color_scheme_seed=ft.Colors.DEEP_ORANGE, use_material3=True, font_family=font)
    wide = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=24, vertical=BUTTON_PAD))
    narrow = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=12, vertical=BUTTON_PAD))
    return ft.Theme(
        color_scheme_seed=ft.Colors.DEEP_ORANGE,
        use_material3=True,
        font_family=font,
        visual_density=ft.VisualDensity.STANDARD,
        button_theme=ft.ButtonTheme(style=wide),
        filled_button_theme=ft.FilledButtonTheme(style=wide),
        outlined_button_theme=ft.OutlinedButtonTheme(style=wide),
        text_button_theme=ft.TextButtonTheme(style=narrow),
        icon_button_theme=ft.IconButtonTheme(style=ft.ButtonStyle(padding=ft.Padding.all((TOUCH - 24) / 2))),
    )


def heading(text: str, size: int = 18, *, color: Any = None, weight: Any = ft.FontWeight.BOLD) -> ft.Text:
    return ft.Text(text, size=size, weight=weight, color=color, semantics_label=None)


def muted(text: str, size: int = 13, *, italic: bool = False) -> ft.Text:
    return ft.Text(text, size=size, color=ft.Colors.ON_SURFACE_VARIANT, italic=italic)


def card(
    content: ft.Control,
    *,
    padding: Any = 12,
    bgcolor: Any = ft.Colors.SURFACE_CONTAINER_LOW,
    border: Any = None,
    identifier: str | None = None,
    expand: Any = None,
    col: Any = None,
    label: str | None = None,
) -> ft.Control:
    box: ft.Control = ft.Container(
        content=content,
        padding=padding,
        bgcolor=bgcolor,
        border=border,
        border_radius=ft.BorderRadius.all(RADIUS + 2),
        expand=expand,
    )
    if identifier is not None or label is not None:
        box = ft.Semantics(content=box, identifier=identifier, label=label, container=True, expand=expand)
    if col is not None:
        box.col = col
    return box


def game_card(title: str, summary: str, actions: list[ft.Control], *, identifier: str | None = None) -> ft.Control:
    """One stored game in a list (Home, History): who played, when and how it went, its buttons."""
    return card(
        ft.Row(
            [
                ft.Column(
                    [ft.Text(title, size=16, weight=ft.FontWeight.W_600), muted(summary)], spacing=2, expand=True
                ),
                *actions,
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        padding=10,
        identifier=identifier,
    )


def start_border(stripe: ft.BorderSide, rtl: bool, rest: ft.BorderSide | None = None) -> ft.Border:
    """A border with an accent stripe on the side where reading starts: left, or right when the
    page is right-to-left (Flutter mirrors rows and alignments, not a Border's sides)."""
    start, end = ("right", "left") if rtl else ("left", "right")
    # None leaves a side out, though Flet's types ask for a BorderSide.
    return ft.Border(**{start: stripe, end: rest, "top": rest, "bottom": rest})  # type: ignore[arg-type]


class Chip:
    """A pill whose text and colours change in place: a new value is a small patch, not a new
    control to build, send and lay out again in every browser showing it."""

    def __init__(self, *, size: int = 12, icon: Any = None, bold: bool = False, tooltip: str | None = None) -> None:
        self.icon = ft.Icon(icon, size=size + 2) if icon is not None else None
        self.text = ft.Text(size=size, weight=ft.FontWeight.BOLD if bold else None)
        parts: list[ft.Control] = [self.text] if self.icon is None else [self.icon, self.text]
        self.control = ft.Container(
            content=ft.Row(parts, spacing=4, tight=True),
            tooltip=tooltip,
            padding=ft.Padding.symmetric(horizontal=8, vertical=3),
            border_radius=ft.BorderRadius.all(20),
        )

    def set(
        self,
        text: str,
        *,
        bgcolor: Any = ft.Colors.SURFACE_CONTAINER_HIGHEST,
        color: Any = None,
        icon_color: Any = None,
    ) -> ft.Control:
        """`icon_color`: the icon's own colour (else the text's)."""
        self.text.value = text
        self.text.color = color
        if self.icon is not None:
            self.icon.color = icon_color if icon_color is not None else color
        self.control.bgcolor = bgcolor
        return self.control


def pill(
    text: str,
    *,
    bgcolor: Any = ft.Colors.SURFACE_CONTAINER_HIGHEST,
    color: Any = None,
    size: int = 12,
    icon: Any = None,
    icon_color: Any = None,
    bold: bool = False,
    tooltip: str | None = None,
) -> ft.Control:
    chip = Chip(size=size, icon=icon, bold=bold, tooltip=tooltip)
    return chip.set(text, bgcolor=bgcolor, color=color, icon_color=icon_color)


def ring(active: bool) -> ft.Border:
    """A standee's outline: thick in the primary colour for whoever is to play."""
    return ft.Border.all(3, ft.Colors.PRIMARY) if active else ft.Border.all(1, ft.Colors.OUTLINE)


def standee(
    short: str,
    color: str,
    label: str,
    *,
    size: int = 30,
    active: bool = False,
    shape: str = "circle",
    icon: Any = None,
    identifier: str | None = None,
) -> ft.Control:
    """A standee's token: its icon, or its letters, on a disc `size` across. The letters grow
    with the reader's text size (to 200%) and the disc grows around them rather than let them spill."""
    fill, ink = paint(color)
    mark = (
        ft.Icon(icon, size=size * 0.6, color=ink)  # an icon keeps its size whatever the text size
        if icon is not None
        else ft.Text(short, size=size * 0.38, color=ink, weight=ft.FontWeight.BOLD, no_wrap=True)
    )
    floor = ft.Container(width=size, height=size)  # the disc's size until the letters outgrow it
    round_ = shape == "circle"
    return ft.Semantics(
        label=label,
        identifier=identifier,
        container=True,
        content=ft.Container(
            content=ft.Stack([floor, ft.Container(mark, padding=size * 0.14)], alignment=ft.Alignment.CENTER),
            bgcolor=fill,
            border=ring(active),
            shape=ft.BoxShape.CIRCLE if round_ else ft.BoxShape.RECTANGLE,
            border_radius=None if round_ else ft.BorderRadius.all(6),
        ),
        exclude_semantics=True,
    )


def choice_chips(
    options: Sequence[tuple[Any, str]],
    selected: Any,
    on_select: Callable[[Any], Any],
    *,
    prefix: str,
    label_of: Callable[[str], str] | None = None,
    disabled: Iterable[Any] = (),
    spacing: int = 8,
    multi: bool = False,
) -> ft.Row:
    """A wrap of toggle chips; `selected` is one value (or a collection when `multi`)."""
    blocked = set(disabled)
    chips = []
    for value, text in options:
        on = (value in selected) if multi else value == selected
        off = value in blocked
        content = tall(
            ft.Row(
                [
                    ft.Icon(ft.Icons.CHECK, size=16) if on else ft.Container(width=0),
                    ft.Text(
                        text,
                        size=14,
                        weight=ft.FontWeight.W_600 if on else None,
                        color=ft.Colors.ON_SURFACE_VARIANT if off else None,
                    ),
                ],
                spacing=4,
                tight=True,
            ),
            8,
        )
        chips.append(
            tap(
                content,
                None if off else (lambda e, v=value: on_select(v)),
                (label_of(text) if label_of else text),
                identifier=f"{prefix}-{value}",
                selected=on,
                padding=ft.Padding.symmetric(horizontal=12, vertical=8),
                radius=20,
                enabled=not off,
                bgcolor=ft.Colors.SECONDARY_CONTAINER if on else ft.Colors.SURFACE_CONTAINER_HIGHEST,
                border=ft.Border.all(1, ft.Colors.PRIMARY if on else ft.Colors.OUTLINE_VARIANT),
            )
        )
    return ft.Row(chips, wrap=True, spacing=spacing, run_spacing=spacing)


def stepper(
    value: int,
    on_change: Callable[[int], Any],
    *,
    low: int = 0,
    high: int = 99,
    label: str,
    prefix: str,
    fmt: Callable[[int], str] = str,
    on_typing: Callable[[int], Any] | None = None,
) -> ft.Control:
    """− value + with named buttons, the value a field that takes a typed number in one step
    (`number_field`); it is read out with its label (`fmt` writes numbers, e.g. in Persian digits)."""
    minus = icon_button(
        ft.Icons.REMOVE,
        f"{label}: −{fmt(1)}",
        (lambda e: on_change(value - 1)) if value > low else None,
        identifier=f"{prefix}-minus",
        enabled=value > low,
        size=20,
    )
    plus = icon_button(
        ft.Icons.ADD,
        f"{label}: +{fmt(1)}",
        (lambda e: on_change(value + 1)) if value < high else None,
        identifier=f"{prefix}-plus",
        enabled=value < high,
        size=20,
    )
    shown = number_field(value, on_change, low=low, high=high, label=label, prefix=prefix, fmt=fmt, on_typing=on_typing)
    return ft.Row([minus, shown, plus], spacing=0, tight=True, vertical_alignment=ft.CrossAxisAlignment.CENTER)


def switch(label: str, value: bool, on_change: Callable[[bool], Any], *, identifier: str | None = None) -> ft.Control:
    """A labelled switch, a touch target high (Flutter's own is 40 px on a desktop browser)."""
    control = ft.Switch(
        value=value,
        label=label,
        on_change=lambda e: on_change(bool(e.control.value)),
        padding=ft.Padding.symmetric(horizontal=4, vertical=(TOUCH - 40) / 2),
    )
    return control if identifier is None else ft.Semantics(identifier=identifier, content=control)


# Set while a number field that was just left hands its number over: the tap that left it is
# still on its way (its finger up comes after), so the screen redraws a moment later (Shell.render).
LEAVING_FIELD: ContextVar[bool] = ContextVar("leaving_field", default=False)


def number_field(
    value: int,
    on_change: Callable[[int], Any],
    *,
    low: int,
    high: int,
    label: str,
    prefix: str,
    fmt: Callable[[int], str] = str,
    on_typing: Callable[[int], Any] | None = None,
    width: float = 64,
) -> ft.Control:
    """A number typed in one step: Enter, or leaving the field, takes it (`on_change`) when it lies
    within `low`..`high` (`typed_number`); a wrong one keeps the value and the field shows the
    bounds. With `on_typing`, each keystroke that makes a valid number is handed to it without a
    redraw and only Enter calls `on_change`: a Done tapped next reads what was typed (leaving the
    field redraws nothing, which would swallow that tap)."""

    def typing(e: Any) -> None:
        typed = typed_number(str(e.control.value or ""), low, high)
        if typed is not None and on_typing is not None:
            on_typing(typed)
        if field.error is not None and typed is not None:
            field.error = None
        else:
            ft.context.disable_auto_update()  # nothing on screen changes while typing

    taken: list[int] = []  # Enter then the blur that follows take a number once

    def commit(e: Any, left: bool = False) -> None:
        typed = typed_number(str(field.value or ""), low, high)
        if typed is None:
            field.error = f"{fmt(low)}–{fmt(high)}"
        elif taken or (on_typing is not None and left):
            ft.context.disable_auto_update()
        elif typed != value:
            taken.append(typed)
            token = LEAVING_FIELD.set(left)
            try:
                on_change(typed)
            finally:
                LEAVING_FIELD.reset(token)
        else:
            field.value, field.error = fmt(value), None

    field = ft.TextField(
        value=fmt(value),
        width=width,
        dense=True,
        text_align=ft.TextAlign.CENTER,
        text_size=18,
        keyboard_type=ft.KeyboardType.NUMBER,
        content_padding=ft.Padding.symmetric(horizontal=4, vertical=12),
        # The input's accessible name, drawn nowhere: every stepper stands beside its label, and
        # a floating label wrapped over the number in a field this narrow ("Cigarett/es").
        label=ft.Text("", semantics_label=label),
        on_change=typing,
        on_submit=commit,
        on_blur=lambda e: commit(e, left=True),
    )
    return ft.Semantics(label=f"{label}: {fmt(value)}", identifier=f"{prefix}-value", container=True, content=field)


def button(
    text: str,
    on_click: Handler | None,
    *,
    identifier: str | None = None,
    icon: Any = None,
    style: str = "filled",
    expand: Any = None,
    danger: bool = False,
    tooltip: str | None = None,
) -> ft.Control:
    """Material buttons with a visible label (their accessible name) and an optional test id."""
    kwargs: dict[str, Any] = dict(
        content=text, icon=icon, on_click=on_click, expand=expand, tooltip=tooltip, disabled=on_click is None
    )
    if danger:
        kwargs["style"] = (
            ft.ButtonStyle(bgcolor=DANGER, color=ft.Colors.WHITE) if style == "filled" else ft.ButtonStyle(color=DANGER)
        )
    cls = {
        "filled": ft.FilledButton,
        "tonal": ft.FilledTonalButton,
        "outlined": ft.OutlinedButton,
        "text": ft.TextButton,
        "plain": ft.Button,
    }[style]
    control: ft.Control = cls(**kwargs)
    if identifier is None:
        return control
    return ft.Semantics(content=control, identifier=identifier, expand=expand)


Built = TypeVar("Built")  # what a Memo keeps: a control, or the list of controls one builder makes


class Memo:
    """Reuse the control built for an unchanged view model between renders.

    Flet diffs the new tree against the old one; a control object it already knows costs
    almost nothing, a new one costs its whole subtree (built, diffed, sent, and laid out again
    in every browser showing it). Keys are the view model's repr or a builder's arguments, so
    any change to what a control shows rebuilds it. A control unused for `keep` renders is
    dropped: 1 keeps only the last render's; more lets a control that comes back (a standee
    turning active and back) be reused.
    """

    def __init__(self, keep: int = 1) -> None:
        self.keep = keep
        self.old: dict[Any, tuple[Any, int]] = {}  # control (or list of controls), renders it has gone unused
        self.new: dict[Any, Any] = {}

    def get(self, key: Any, build: Callable[[], Built]) -> Built:
        """The control built for `key` (a key stands for one view model, so for one builder's type)."""
        if key in self.new:  # asked twice in one render: a second copy, never the same object
            return build()
        kept = self.old.get(key)
        control: Built = kept[0] if kept is not None else build()
        self.new[key] = control
        return control

    def make(self, build: Callable[..., Built], *args: Any, **kwargs: Any) -> Built:
        """`build(*args, **kwargs)`, or what it built last time with the same (hashable) arguments."""
        return self.get((build, args, tuple(sorted(kwargs.items()))), lambda: build(*args, **kwargs))

    def cycle(self) -> None:
        """End a render: what it used is kept, the rest ages."""
        aged = {k: (c, idle + 1) for k, (c, idle) in self.old.items() if k not in self.new and idle + 1 < self.keep}
        aged.update((k, (c, 0)) for k, c in self.new.items())
        self.old, self.new = aged, {}


def flat_button(
    text: str,
    on_click: Handler | None,
    *,
    identifier: str | None = None,
    icon: Any = None,
    style: str = "filled",
    danger: bool = False,
    expand: Any = None,
) -> ft.Control:
    """A button for the table's hot path: looks like a Material button, no ripple animation.

    A ripple is a few dozen repaints; on a phone (or a laptop without a GPU) they delay the
    screen that answers the tap, so the referee's buttons do without.
    """
    fg: ft.ColorValue = {"filled": ft.Colors.ON_PRIMARY, "tonal": ft.Colors.ON_SECONDARY_CONTAINER}.get(
        style, ft.Colors.PRIMARY
    )
    bg: ft.ColorValue | None = {"filled": ft.Colors.PRIMARY, "tonal": ft.Colors.SECONDARY_CONTAINER}.get(style)
    border = ft.Border.all(1, ft.Colors.OUTLINE) if style == "outlined" else None
    if danger:
        fg, bg = (ft.Colors.WHITE, DANGER) if style == "filled" else (DANGER, bg)
        border = ft.Border.all(1, DANGER) if style == "outlined" else border
    if on_click is None:
        fg = ft.Colors.with_opacity(0.38, ft.Colors.ON_SURFACE)
        bg = ft.Colors.with_opacity(0.12, ft.Colors.ON_SURFACE) if bg is not None else None
    parts: list[ft.Control] = []
    if icon is not None:
        parts.append(ft.Icon(icon, size=18, color=fg))
    parts.append(ft.Text(text, size=14, weight=ft.FontWeight.W_600, color=fg))
    return tap(
        ft.Row(parts, spacing=8, tight=True, alignment=ft.MainAxisAlignment.CENTER),
        on_click,
        text,
        identifier=identifier,
        padding=ft.Padding.symmetric(horizontal=18, vertical=10),
        bgcolor=bg,
        border=border,
        radius=20,
        expand=expand,
    )
