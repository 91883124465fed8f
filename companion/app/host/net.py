"""Addresses and networks, as the process binds and compares them (loopback, a LAN address, the
reverse proxies named on the command line)."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
LOOPBACK: tuple[Network, ...] = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))
LAN_COMMAND = "dyo-companion --lan"  # how to start the app so that phones on the network can join


def networks(addresses: Iterable[str]) -> tuple[Network, ...]:
    """Addresses or networks (`10.0.0.5`, `10.0.0.0/24`, `::1`) as networks; ValueError names a bad one."""
    out = []
    for text in addresses:
        text = text.strip()
        if not text:
            continue
        try:
            out.append(ipaddress.ip_network(text, strict=False))
        except ValueError:
            raise ValueError(f"not an IP address or network: {text!r}") from None
    return tuple(out)


def within(address: str, nets: Iterable[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in nets)


def is_loopback(address: str) -> bool:
    return within(address, LOOPBACK)


def reachable_url(url: str) -> bool:
    """Whether another device could open `url`: not when it names this machine itself."""
    host = urlsplit(url).hostname or ""
    return host != "localhost" and not is_loopback(host)
