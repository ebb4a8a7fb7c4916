"""Where everything lives in a workspace folder: the one table of its file and folder names.

Readers and writers name their files by these constants, so the review stamp, the
importers and the index never spell a path of their own.
"""

from __future__ import annotations

CANON_DIR = ".zettelkasten"  # canon boxes, one subfolder each
PRACTICE_DIR = ".memory"  # practice entries
SOURCES_DIR = "sources"  # full texts, highlights and PDF sidecars
CONFIG_FILE = "workspace.toml"  # the workspace's settings

SYNAPSE_DIR = ".synapse"  # the app's shared writes; nothing else is written in a workspace
# The index, sentence vectors and passage offsets are private to each user: they live in the
# user's state folder (`engine.workspace.caches`), never here.
ID_FILE = f"{SYNAPSE_DIR}/workspace-id"  # the workspace's random id, written once
OVERLAY_PATH = f"{SYNAPSE_DIR}/links/claim_links.json"
TRIAGE_LOG = f"{SYNAPSE_DIR}/triage.jsonl"
TRIAGE_LOCK = f"{SYNAPSE_DIR}/triage.lock"
MANIFEST_FILE = f"{SYNAPSE_DIR}/imports/manifest.json"
JOURNAL_FILE = f"{SYNAPSE_DIR}/imports/journal.jsonl"
IMPORT_LOCK = f"{SYNAPSE_DIR}/imports/lock"
SOURCES_REPORT = f"{SYNAPSE_DIR}/reports/sources-add.json"
IMPORT_REPORTS = f"{SYNAPSE_DIR}/reports/imports.json"  # the app's imports, until dismissed
PAYLOADS_DIR = f"{SYNAPSE_DIR}/payloads"  # audited payloads, named by a hash of their text

# The files whose change changes what review says: a triage decision, a rebuilt overlay,
# another contest setting.
REVIEW_FILES = (TRIAGE_LOG, OVERLAY_PATH, CONFIG_FILE)
