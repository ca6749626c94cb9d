"""Opening the app on a phone: the addresses of this machine a phone on the same network
can open, and a QR code of the first, for the home screen.

A server listening on every interface (``0.0.0.0`` or ``::``) is reached at each of the
machine's own IPv4 addresses, never at ``0.0.0.0``; one on loopback by this machine only.
"""

from __future__ import annotations

import ipaddress

import ifaddr
import segno

__all__ = ["WILDCARDS", "is_loopback", "phone_addresses", "qr_code", "url"]

WILDCARDS = frozenset({"0.0.0.0", "::", ""})


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only: ``127.0.0.1``, ``::1``, ``localhost``."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name: whoever resolves it


def url(host: str, port: int) -> str:
    """The address to open for ``host``: ``[…]`` around an IPv6 address.

    >>> url("192.168.1.20", 8000), url("fd00::2", 8000)
    ('http://192.168.1.20:8000/', 'http://[fd00::2]:8000/')
    """
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def _machine_addresses() -> list[str]:
    """The machine's IPv4 addresses, loopback and link-local ones left out, each once."""
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6: (address, flowinfo, scope id)
            address = ipaddress.IPv4Address(ip.ip)
            if address.is_loopback or address.is_unspecified or address.is_link_local:
                continue
            if ip.ip not in found:
                found.append(ip.ip)
    return found


def phone_addresses(host: str, port: int) -> list[str]:
    """The URLs a phone can open for a server on ``host``: every address of the machine for
    a wildcard, that host's for another, none for loopback."""
    if is_loopback(host):
        return []
    if host in WILDCARDS:
        return [url(address, port) for address in _machine_addresses()]
    return [url(host, port)]


def qr_code(address: str) -> str:
    """A ``data:`` URI of an SVG QR code of ``address``, black on white (a scanner reads dark
    on light), with the four modules of margin the standard asks for."""
    code = segno.make(address, error="m")
    uri: str = code.svg_data_uri(scale=4, border=4, dark="#000", light="#fff")
    return uri
