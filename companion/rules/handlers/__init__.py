"""Every rule of the game, one module per family; importing this package registers them."""

from . import (  # noqa: F401
    action_cards,
    adjust,
    backgrounds,
    basic,
    combat,
    dig_in,
    gangs,
    movement,
    neutrals,
    places,
    turns,
    warden,
)
