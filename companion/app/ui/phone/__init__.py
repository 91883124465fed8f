"""A phone at the table: the neutral page, the seat picker and the gate (`screens`), a seat's
screen (`seat`), the public table view with the QR code (`table_view`). What a phone may see is
decided by the engine's projection, `companion.rules.views`."""
