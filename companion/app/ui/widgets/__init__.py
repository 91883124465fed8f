"""Flet building blocks shared by the screens: accessible tappables, chips, standees (`common`),
the die (`die`), the map (`board`), the players' boards (`players`), the table's right-hand
panels (`panels/`), and redrawing in place as small patches (`patch`)."""
