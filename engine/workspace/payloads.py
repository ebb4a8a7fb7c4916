"""Audited payloads kept in the workspace, named by a hash of their text, so a link can name one.

The Audit page saves a routed payload under `.synapse/payloads/<ref>.json`, where `ref` is
the first 20 hex digits of the SHA-256 of its text. A link carries only the ref; opening it
reads the text back and routes it again. A payload is data: it is parsed and routed, never
executed. A ref that is not exactly 20 lower-case hex digits names nothing (no path is ever
built from anything else).
"""

from __future__ import annotations

import hashlib
import os
import re

from engine.core.errors import WorkspaceError
from engine.workspace.atomic import read_app_file, synapse_path, write_atomic
from engine.workspace.layout import PAYLOADS_DIR

REF_DIGITS = 20
MAX_PAYLOAD_BYTES = 8 * 1024 * 1024
_REF = re.compile(rf"[0-9a-f]{{{REF_DIGITS}}}")


def payload_ref(text: str) -> str:
    """The ref a payload's text is saved under: a prefix of its SHA-256, in hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:REF_DIGITS]


def save_payload(root: str | os.PathLike[str], text: str) -> str:
    """Save `text` under the workspace's `.synapse/payloads/` and return its ref.

    Raises WorkspaceError (a link in `.synapse/`, a payload over the size cap) or OSError
    (a read-only folder); saving the same text twice writes one file.
    """
    data = text.encode("utf-8")
    if len(data) > MAX_PAYLOAD_BYTES:
        raise WorkspaceError(f"the payload is over the {MAX_PAYLOAD_BYTES:,}-byte cap")
    ref = payload_ref(text)
    write_atomic(synapse_path(root, f"{PAYLOADS_DIR}/{ref}.json"), data)
    return ref


def load_payload(root: str | os.PathLike[str], ref: str) -> str | None:
    """The text saved under `ref`, or None when the ref is malformed, missing or unreadable."""
    if not _REF.fullmatch(ref):
        return None
    try:
        data = read_app_file(
            synapse_path(root, f"{PAYLOADS_DIR}/{ref}.json"), max_bytes=MAX_PAYLOAD_BYTES
        )
    except (OSError, WorkspaceError):
        return None
    text = data.decode("utf-8", errors="replace")
    return text if payload_ref(text) == ref else None
