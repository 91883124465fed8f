"""Serving the process: what the command settles before it imports the app (`start`), the web
server and the command that starts it (`launch`, `server`), the packaged app's entry (`native`),
what the web app says it is (`manifest`), instances on one database (`instances`) and the
supervisor of `--workers` (`workers`), Flet's patches (`flet_diff`, `flet_costs`) and the
process's memory."""
