"""Application services, with no Flet: one table's game in the store (`session`), store calls off
the event loop (`offloop`), the games a screen opens (`opening`), the news of every table
(`news`, and across instances `notify`), the table's settings (`settings`), and phones joining
(`joining`, `sync`)."""
