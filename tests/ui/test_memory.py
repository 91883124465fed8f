"""The server's garbage collector settings (companion/app/memory.py says why)."""

from __future__ import annotations

import gc

from companion.app import memory


def test_the_started_server_leaves_its_loaded_objects_out_of_collections() -> None:
    before = gc.get_threshold()
    try:
        memory.settle_collector()
        assert gc.get_freeze_count() > 1000  # modules, classes, catalogs: frozen once loaded
        assert gc.get_threshold() == (memory.YOUNG_COLLECTION, *before[1:])
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
