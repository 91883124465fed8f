"""Serving the process: what the command settles before it imports the app (`start`), the web
server and the command that starts it (`launch`, `server`), the packaged app's entry (`native`),
what the web app says it is (`manifest`), worker processes and instances (`instances`), Flet's
patches (`flet_diff`, `flet_costs`) and the process's memory."""
