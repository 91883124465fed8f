"""View models: what each screen shows, as plain data computed from the engine's state.

Nothing here imports Flet, so every decision about what to show (which actions, why one is
disabled, what a pending decision asks, how an event reads) is tested without a browser.
All text comes from the translation layer through a `Tr` bound to the viewer's language.
"""
