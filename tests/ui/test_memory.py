"""The server's garbage collector settings (companion/app/host/memory.py says why).

They change the collector of the whole process, so each test runs them in a fresh interpreter.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(script: str) -> None:
    code = textwrap.dedent(
        """
        import gc, time, weakref
        from companion.app.host import memory

        class Cycle:
            def __init__(self):
                self.me = self

        def frozen_cycle():
            alive = Cycle()
            gc.collect(0)  # a young collection finds it alive: it is frozen
            return weakref.ref(alive)
        """
    ) + textwrap.dedent(script)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_started_server_freezes_what_it_loaded_and_scans_only_new_objects() -> None:
    _run(
        """
        before = gc.get_threshold()
        memory.settle_collector()
        assert gc.get_freeze_count() > 1000  # modules, classes, catalogs: frozen once loaded
        assert gc.get_threshold() == (memory.YOUNG_COLLECTION, *before[1:])
        """
    )


def test_what_survives_a_collection_is_left_out_until_sessions_close() -> None:
    _run(
        """
        memory.settle_collector()
        dead = frozen_cycle()
        gc.collect()
        assert dead() is not None  # frozen: not even a full collection scans it
        memory.release_now()  # sessions closed: everything is collected
        assert dead() is None
        """
    )


def test_screens_left_are_collected_after_enough_of_them() -> None:
    _run(
        """
        memory.settle_collector()
        dead = frozen_cycle()
        for _ in range(memory.SCREENS_PER_SWEEP - 1):
            memory.screen_left()
        gc.collect()
        assert dead() is not None  # not yet: a collection of everything stalls every screen
        memory.screen_left()  # (no event loop here: released at once)
        assert dead() is None
        """
    )


def test_a_process_that_is_not_a_server_keeps_its_collector() -> None:
    _run(
        """
        for _ in range(memory.SCREENS_PER_SWEEP):  # a test or a tool that shows many screens
            memory.screen_left()
        assert gc.get_freeze_count() == 0 and memory._freeze_survivors not in gc.callbacks
        """
    )
