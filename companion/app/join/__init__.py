"""Playing from phones: every player's phone joins the table by its QR code.

- `tokens`: what a join link and a device token look like, and the rate limit on bad ones;
- `access`: who may use the host's screens (this machine, or a browser holding the host key);
- `service`: the join link, binding a device to a seat, presence (shared by every session);
- `sync`: a seat's session (every write carries the version it was made on and a key that
  makes a retried tap harmless) and the per-game news (../news.py);
- `screens`: the neutral page, the seat picker, the phone's gate; `seat`: a phone's screen;
  `table_view`: the public table view with the QR code and the devices at the table;
- `bench`: the `sync` benchmark suite; `storm`: the reconnect storm;
- `instance`: one instance without its web server (the scale tests, `bench tables`); `proxy`:
  instances of the command behind the example nginx configuration; `tables`: `bench tables`,
  whose load (`load`) is tables of bare clients through that proxy.

What a phone may see is decided in one place, the engine's projection, `companion.rules.views`.
"""
