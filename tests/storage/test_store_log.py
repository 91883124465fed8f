"""The meaning of undo and redo entries, folded without a database."""

import pytest

from storage.log import Entry, fold


def _entries(*spec):
    return [Entry(seq, kind, target, f'{{"n": {seq}}}') for seq, (kind, target) in enumerate(spec, start=1)]


def test_undo_redo_and_a_new_branch():
    folded = fold(
        _entries(
            ("action", None),
            ("action", None),
            ("action", None),
            ("undo", 3),
            ("undo", 2),
            ("redo", 2),
            ("action", None),
            ("undo", 7),
        )
    )
    assert [e.seq for e in folded.in_effect] == [1, 2]
    assert folded.redo == [7]  # 3 was left behind by the new action 7
    assert folded.undone == {3, 7}


@pytest.mark.parametrize(
    "spec",
    [
        (("undo", 1),),  # nothing in effect
        (("action", None), ("undo", 5)),  # not the latest
        (("action", None), ("redo", 1)),  # nothing undone
        (("action", None), ("undo", 1), ("action", None), ("redo", 1)),  # a new action ended the redo
        (("action", None), ("rewind", 1)),
    ],
)
def test_entries_that_do_not_add_up(spec):
    with pytest.raises(ValueError):
        fold(_entries(*spec))
