"""The app put together: the one layer that knows every other (companion/app/__init__.py). The
host serves whatever it is handed; `web` hands it the table app as `dyo-companion` serves it,
`packaged` as the packaged app runs it."""
