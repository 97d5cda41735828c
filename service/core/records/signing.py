"""Game records signed by the service with Ed25519, so that anyone can tell which service
produced a record (docs/api.md section 14; keys and rotation: docs/security.md).

The signed bytes are the record's canonical JSON with its `signature` member removed: RFC 8785
(JCS), UTF-8, so any JCS library in any language makes the same bytes of the same JSON.
`canonical` writes them (the lock holds no JCS library): object members sorted by the UTF-16
code units of their names, no whitespace, strings escaped as JSON.stringify escapes them, and
numbers as ECMAScript writes a double (`30.0` is `30`, `1e-7` is `1e-7`). An integer beyond
2**53, a NaN or an infinity has no exact JCS form in every language: such a record is
NotCanonical, and no record the service exports holds one.

A key id is the first 16 hex digits of the SHA-256 of the raw 32-byte public key. Keys are
base64url, padding optional (standard base64 is read too). The private key is held by `Signer`
alone, which never shows it: not in its repr, not in an error.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from json.encoder import encode_basestring
from typing import Any

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from service.core.records.format import (
    SIGNATURE_ALGORITHM,
    RecordSignature,
    RecordSigningKey,
    RecordSigningKeys,
    SignatureCheck,
)

SIGNING_KEY = "RULES_RECORD_SIGNING_KEY"
VERIFY_KEYS = "RULES_RECORD_VERIFY_KEYS"
MEMBER = "signature"
KEY_BYTES = 32
# JCS numbers are IEEE doubles: beyond this an integer is not the same number in every language
SAFE_INTEGER = 2**53
BASE64 = re.compile("[A-Za-z0-9_+/-]+={0,2}")


class NotCanonical(ValueError):
    """A value with no RFC 8785 form: a NaN, an infinity, an integer beyond 2**53, a string
    that is not Unicode text (a lone surrogate), or no JSON value at all."""


class KeySettingError(ValueError):
    """A key setting that holds no key. The message names the setting, never its value."""


def canonical(value: object) -> bytes:
    """The RFC 8785 (JCS) bytes of a JSON value: what a record's signature signs."""
    parts: list[str] = []
    try:
        _write(value, parts)
        return "".join(parts).encode()
    except (UnicodeEncodeError, RecursionError) as exc:
        raise NotCanonical(type(exc).__name__) from None


def _write(value: object, parts: list[str]) -> None:
    if isinstance(value, str):
        parts.append(encode_basestring(value))
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, int):
        if abs(value) > SAFE_INTEGER:
            raise NotCanonical("an integer beyond 2**53")
        parts.append(str(value))
    elif isinstance(value, float):
        parts.append(_number(value))
    elif isinstance(value, list | tuple):
        parts.append("[")
        for index, item in enumerate(value):
            if index:
                parts.append(",")
            _write(item, parts)
        parts.append("]")
    elif isinstance(value, dict):
        if not all(isinstance(name, str) for name in value):
            raise NotCanonical("an object member named by no string")
        parts.append("{")
        for index, name in enumerate(sorted(value, key=_utf16)):
            if index:
                parts.append(",")
            parts.append(encode_basestring(name))
            parts.append(":")
            _write(value[name], parts)
        parts.append("}")
    else:
        raise NotCanonical(f"{type(value).__name__} is no JSON value")


def _utf16(name: str) -> bytes:
    return name.encode("utf-16-be", "surrogatepass")


def _number(number: float) -> str:
    """ECMAScript's Number::toString of a double (RFC 8785 section 3.2.2.3), from the
    shortest digits that read back as it, which repr gives too."""
    if not math.isfinite(number):
        raise NotCanonical("NaN and the infinities have no JSON form")
    if number == 0:
        return "0"
    mantissa, _, exponent = repr(abs(number)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + int(exponent or 0)  # the value is 0.<digits> * 10**point
    significant = digits.lstrip("0")
    point -= len(digits) - len(significant)
    digits = significant.rstrip("0")
    count = len(digits)
    if count <= point <= 21:
        text = digits + "0" * (point - count)
    elif 0 < point <= 21:
        text = f"{digits[:point]}.{digits[point:]}"
    elif -6 < point <= 0:
        text = "0." + "0" * -point + digits
    else:
        power = point - 1
        text = digits[0] + (f".{digits[1:]}" if count > 1 else "") + f"e{power:+d}"
    return ("-" if number < 0 else "") + text


def unsigned(document: dict[str, Any]) -> dict[str, Any]:
    """The record as its signature signs it: without the signature."""
    return {name: value for name, value in document.items() if name != MEMBER}


def key_id(public_key: bytes) -> str:
    return hashlib.sha256(public_key).hexdigest()[:16]


def encoded(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _decoded(text: str) -> bytes:
    """base64url (or standard base64) with or without padding; binascii.Error if it is not."""
    text = text.strip()
    if not BASE64.fullmatch(text):
        raise binascii.Error("not base64url")
    text = text.rstrip("=").translate(str.maketrans("+/", "-_"))
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class PublicKey:
    key: Ed25519PublicKey = field(repr=False)
    raw: bytes = field(repr=False)
    key_id: str

    @classmethod
    def of(cls, key: Ed25519PublicKey) -> PublicKey:
        raw = key.public_bytes(Encoding.Raw, PublicFormat.Raw)
        return cls(key, raw, key_id(raw))

    def published(self) -> RecordSigningKey:
        return RecordSigningKey(
            key_id=self.key_id, algorithm=SIGNATURE_ALGORITHM, public_key=encoded(self.raw)
        )


class Signer:
    """The service's private key: it signs records and shows only its public half."""

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        self._private_key = private_key
        self.public = PublicKey.of(private_key.public_key())

    def __repr__(self) -> str:
        return f"Signer(key_id={self.public.key_id!r})"

    def sign(self, document: dict[str, Any]) -> dict[str, Any]:
        """`document` (a record as JSON builtins) with its signature as the last member.
        NotCanonical if it holds a value JCS cannot write exactly."""
        content = unsigned(document)
        signature = self._private_key.sign(canonical(content))
        member = RecordSignature(
            key_id=self.public.key_id, algorithm=SIGNATURE_ALGORITHM, value=encoded(signature)
        )
        return {**content, MEMBER: msgspec.to_builtins(member)}


@dataclass(frozen=True)
class Keyring:
    """The key records are signed with (none: exported unsigned) and every public key a
    signature is VALID under: the signing key's first, then those kept after a rotation."""

    signer: Signer | None = None
    accepted: tuple[PublicKey, ...] = ()

    @classmethod
    def from_settings(cls, signing_key: str, verify_keys: Iterable[str]) -> Keyring:
        """RULES_RECORD_SIGNING_KEY (the 32-byte private seed) and RULES_RECORD_VERIFY_KEYS
        (public keys); KeySettingError names the setting that holds no key."""
        signer = None
        if signing_key.strip():
            try:
                seed = _decoded(signing_key)
            except (binascii.Error, ValueError):
                raise KeySettingError(
                    f"{SIGNING_KEY} is not base64url (A-Z, a-z, 0-9, - and _)"
                ) from None
            if len(seed) != KEY_BYTES:
                raise KeySettingError(
                    f"{SIGNING_KEY} holds {len(seed)} bytes: an Ed25519 private key is the "
                    f"base64url of a {KEY_BYTES}-byte seed"
                )
            signer = Signer(Ed25519PrivateKey.from_private_bytes(seed))
            if any(_same_bytes(seed, text) for text in verify_keys):
                raise KeySettingError(
                    f"{VERIFY_KEYS} holds the private key of {SIGNING_KEY}: it takes public "
                    "keys only (they are published)"
                )
        first = () if signer is None else (signer.public,)
        return cls(signer, _unique(first + _public_keys(verify_keys, VERIFY_KEYS)))

    @classmethod
    def of_public_keys(cls, public_keys: Iterable[str], source: str = "--public-key") -> Keyring:
        """Public keys only, to check signatures offline (`python -m service.replay`)."""
        return cls(None, _unique(_public_keys(public_keys, source)))

    def published(self) -> RecordSigningKeys:
        return RecordSigningKeys(keys=[key.published() for key in self.accepted])

    def check(self, document: object) -> tuple[SignatureCheck, str | None]:
        """What a record's signature says, and the key id it names (when it names one)."""
        if not isinstance(document, dict) or MEMBER not in document:
            return "UNSIGNED", None
        try:
            signature = msgspec.convert(document[MEMBER], RecordSignature)
        except msgspec.ValidationError:
            return "INVALID", None
        named = signature.key_id
        key = next((key for key in self.accepted if key.key_id == named), None)
        if key is None:
            return "UNKNOWN_KEY", named
        try:
            key.key.verify(_decoded(signature.value), canonical(unsigned(document)))
        except (InvalidSignature, NotCanonical, binascii.Error, ValueError):
            return "INVALID", named
        return "VALID", named


def _public_keys(texts: Iterable[str], source: str) -> tuple[PublicKey, ...]:
    keys = []
    for position, text in enumerate(texts, 1):
        try:
            raw = _decoded(text)
            if len(raw) != KEY_BYTES:
                raise ValueError
            keys.append(PublicKey.of(Ed25519PublicKey.from_public_bytes(raw)))
        except (binascii.Error, ValueError):
            raise KeySettingError(
                f"{source}: key {position} is not the base64url of a {KEY_BYTES}-byte "
                "Ed25519 public key"
            ) from None
    return tuple(keys)


def _same_bytes(raw: bytes, text: str) -> bool:
    try:
        return _decoded(text) == raw
    except (binascii.Error, ValueError):
        return False


def _unique(keys: tuple[PublicKey, ...]) -> tuple[PublicKey, ...]:
    first: dict[str, PublicKey] = {}
    for key in keys:
        first.setdefault(key.key_id, key)
    return tuple(first.values())


NO_KEYS = Keyring()  # development: records exported unsigned; any signature UNKNOWN_KEY
