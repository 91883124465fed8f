"""Screens, one per route (routes.py). Each builds its app bar and body from view models and forwards taps."""
