"""Flet building blocks shared by the screens: accessible tappables, chips, standees, the die."""
